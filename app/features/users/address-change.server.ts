import { createHash, randomBytes, randomUUID } from "node:crypto";
import { hashPassword } from "better-auth/crypto";
import { and, eq, ne, sql } from "drizzle-orm";
import type { Db } from "#app/db/client.server.ts";
import { isUniqueViolation, rowsOf, type Queryable } from "#app/db/sql.server.ts";
import { accounts, sessions, users, verifications } from "#app/db/schema/users.ts";
import type { Env } from "#app/lib/env.server.ts";
import { noteSessionsEnded } from "#app/lib/session-end.server.ts";
import { signToken, verifySignedToken } from "#app/lib/signed-token.server.ts";

/**
 * これは私ではありません: the link in the notice a change of address sends to the old address.
 * Whoever asked for the change had the session and the password (the settings page asks for it),
 * so the owner's one answer undoes all of it, whatever happened since (the address changed again,
 * the password changed): a pending change can no longer be confirmed, the account goes back to
 * the old address, every session ends and the password stops working, so the owner sets a new one
 * from a reset link mailed to their own address.
 *
 * The token is signed, not stored (app/lib/signed-token.server.ts). Using it writes a marker row
 * (verifications, `address-change-not-me:<hash of the token>`) in the same transaction that locks
 * the account, so a second press, even at the same moment, finds it spent. Replacing the password
 * moves the credential's updated_at, which makes every change-of-address link and every reset link
 * issued before it stale (isStaleAddressChange, isResetTokenCurrent).
 *
 * The old address is held for the account for as long as the link lives (a reservation row,
 * `address-reserved:<address>`): nobody else can sign up with it or move another account to it,
 * so the way back cannot be blocked by taking the address first.
 */
const PURPOSE = "address-change-not-me";
/** Longer than the change link's 24 hours: the owner may read the notice after the change went through. */
export const NOT_ME_SECONDS = 7 * 24 * 60 * 60;

type Claims = { userId: string; oldEmail: string; newEmail: string; issuedAt: number };

const usedKey = (token: string) => `${PURPOSE}:${createHash("sha256").update(token).digest("base64url")}`;
const reservationKey = (email: string) => `address-reserved:${email.trim().toLowerCase()}`;

/**
 * The link for the notice, and the old address held for the account meanwhile. Called in the
 * transaction that queues the two mails.
 */
export async function prepareNotMeLink(tx: Queryable, env: Pick<Env, "siteUrl" | "authSecret">, claims: Omit<Claims, "issuedAt">): Promise<string> {
  const issuedAt = Date.now();
  const expiresAt = new Date(issuedAt + NOT_ME_SECONDS * 1000);
  await tx.execute(sql`delete from verifications where identifier = ${reservationKey(claims.oldEmail)} and value = ${claims.userId}`);
  await tx.execute(
    sql`insert into verifications (id, identifier, value, expires_at, created_at, updated_at)
        values (${randomUUID()}, ${reservationKey(claims.oldEmail)}, ${claims.userId}, ${expiresAt}, now(), now())`,
  );
  const payload = JSON.stringify({ u: claims.userId, o: claims.oldEmail, n: claims.newEmail, t: issuedAt });
  return `${env.siteUrl}/account/not-me?token=${signToken(env.authSecret, PURPOSE, payload)}`;
}

/**
 * Whether an address is held for another account after it changed away from it: sign-up and a
 * change of address treat it as taken (and say so the way they do for any taken address).
 */
export async function isAddressReserved(db: Queryable, email: string, exceptUserId?: string): Promise<boolean> {
  const [row] = await rowsOf<{ held: boolean }>(
    db,
    sql`select exists (
          select 1 from verifications v
          where v.identifier = ${reservationKey(email)} and v.expires_at > now()
            ${exceptUserId ? sql`and v.value <> ${exceptUserId}` : sql``}
        ) as held`,
  );
  return Boolean(row?.held);
}

function readToken(env: Pick<Env, "authSecret">, token: string | null | undefined): Claims | null {
  const payload = verifySignedToken(env.authSecret, PURPOSE, token);
  if (!payload) return null;
  try {
    const { u, o, n, t } = JSON.parse(payload) as Record<string, unknown>;
    if (typeof u !== "string" || typeof o !== "string" || typeof n !== "string" || typeof t !== "number") return null;
    return { userId: u, oldEmail: o, newEmail: n, issuedAt: t };
  } catch {
    return null;
  }
}

export type NotMeState = "valid" | "used" | "invalid";

/** What the page shows for a link (the button, "already done", or "this link does not work") and the address it names. */
export async function notMeLink(db: Db, env: Env, token: string | null | undefined): Promise<{ state: NotMeState; newEmail: string | null }> {
  const claims = readToken(env, token);
  return { state: await linkState(db, claims, token), newEmail: claims?.newEmail ?? null };
}

async function linkState(db: Queryable, claims: Claims | null, token: string | null | undefined): Promise<NotMeState> {
  if (!claims || !token || Date.now() - claims.issuedAt > NOT_ME_SECONDS * 1000) return "invalid";
  const [row] = await rowsOf<{ deleted: boolean; used: boolean }>(
    db,
    sql`select p.deleted_at is not null as deleted,
               exists (select 1 from verifications v where v.identifier = ${usedKey(token)}) as used
        from users u left join profiles p on p.user_id = u.id
        where u.id = ${claims.userId}`,
  );
  if (!row || row.deleted) return "invalid";
  return row.used ? "used" : "valid";
}

export type NotMeResult =
  | { done: false; state: Exclude<NotMeState, "valid"> }
  | { done: true; email: string; oldEmail: string; reverted: boolean; sessionsEnded: number };

/**
 * Undoes the change the notice was about, in one transaction: the account goes back to the old
 * address (unless it is there already), the password is replaced by one nobody knows, and every
 * session ends. `email` is where the account is afterwards: the caller mails a reset link there
 * only when it is the old address, never to an address the requester chose.
 */
export async function undoAddressChange(db: Db, env: Env, token: string | null | undefined): Promise<NotMeResult> {
  const claims = readToken(env, token);
  const state = await linkState(db, claims, token);
  if (state !== "valid" || !claims || !token) return { done: false, state: state === "valid" ? "invalid" : state };
  // Better Auth's own hash of a password nobody was told: a valid credential that never matches.
  const unusable = await hashPassword(randomBytes(32).toString("base64url"));
  const result = await db.transaction(async (tx) => {
    const [user] = await tx.select({ email: users.email }).from(users).where(eq(users.id, claims.userId)).for("update").limit(1);
    if (!user) return { state: "invalid" as const };
    // Checked again under the account's lock: of two presses at once, the second finds it spent.
    const again = await linkState(tx, claims, token);
    if (again !== "valid") return { state: again };
    await tx.insert(verifications).values({ id: randomUUID(), identifier: usedKey(token), value: claims.userId, expiresAt: new Date(claims.issuedAt + NOT_ME_SECONDS * 1000) });
    let email = user.email;
    let reverted = false;
    if (user.email.toLowerCase() !== claims.oldEmail.toLowerCase()) {
      const [taken] = await tx
        .select({ id: users.id })
        .from(users)
        .where(and(sql`lower(${users.email}) = ${claims.oldEmail.toLowerCase()}`, ne(users.id, claims.userId)))
        .limit(1);
      if (!taken) {
        try {
          // A savepoint: a sign-up that takes the address at this very moment only leaves it taken.
          await tx.transaction(async (step) => {
            await step.update(users).set({ email: claims.oldEmail, emailVerified: true, updatedAt: new Date() }).where(eq(users.id, claims.userId));
          });
          email = claims.oldEmail;
          reverted = true;
        } catch (error) {
          if (!isUniqueViolation(error)) throw error;
        }
      }
    }
    // A time strictly after the token's, even on a clock that has not moved since it was issued.
    const changedAt = new Date(Math.max(Date.now(), claims.issuedAt + 1));
    await tx
      .update(accounts)
      .set({ password: unusable, updatedAt: changedAt })
      .where(and(eq(accounts.userId, claims.userId), eq(accounts.providerId, "credential")));
    // Reset links mailed before now go too; the one mailed next is the only way back in.
    await tx.delete(verifications).where(and(sql`${verifications.identifier} like 'reset-password:%'`, eq(verifications.value, claims.userId)));
    const ended = await tx.delete(sessions).where(eq(sessions.userId, claims.userId)).returning({ id: sessions.id });
    return { state: "done" as const, email, reverted, ended: ended.map((s) => s.id) };
  });
  if (result.state !== "done") return { done: false, state: result.state };
  noteSessionsEnded(result.ended);
  return { done: true, email: result.email, oldEmail: claims.oldEmail, reverted: result.reverted, sessionsEnded: result.ended.length };
}
