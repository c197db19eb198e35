import { randomBytes } from "node:crypto";
import { hashPassword } from "better-auth/crypto";
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client.server";
import { accounts, sessions, users, verifications } from "../../db/schema/users";
import type { Env } from "../../lib/env.server";
import { noteSessionsEnded } from "../../lib/session-end.server";
import { signToken, verifySignedToken } from "../../lib/signed-token.server";

/**
 * これは私ではありません: the link in the notice a change of address sends to the old address.
 * Whoever asked for the change had the session and the password (the settings page asks for it),
 * so the owner's one answer undoes all of it: a pending change can no longer be confirmed, a
 * change already confirmed goes back to the old address, every session ends and the password stops
 * working, so the owner sets a new one from a reset link mailed to their own address.
 *
 * The token is signed, not stored (app/lib/signed-token.server.ts). It is used once: undoing
 * replaces the password, which moves the credential's updated_at past the token's time, and a
 * token older than that is spent. The same rule makes every change-of-address link issued before
 * it stale (isStaleAddressChange) and every reset link (isResetTokenCurrent).
 */
const PURPOSE = "address-change-not-me";
/** Longer than the change link's 24 hours: the owner may read the notice after the change went through. */
export const NOT_ME_SECONDS = 7 * 24 * 60 * 60;

type Claims = { userId: string; oldEmail: string; newEmail: string; issuedAt: number };

export function notMeUrl(env: Pick<Env, "siteUrl" | "authSecret">, claims: Omit<Claims, "issuedAt">, issuedAt = Date.now()): string {
  const payload = JSON.stringify({ u: claims.userId, o: claims.oldEmail, n: claims.newEmail, t: issuedAt });
  return `${env.siteUrl}/account/not-me?token=${signToken(env.authSecret, PURPOSE, payload)}`;
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
  return { state: await linkState(db, claims), newEmail: claims?.newEmail ?? null };
}

async function linkState(db: Db, claims: Claims | null): Promise<NotMeState> {
  if (!claims || Date.now() - claims.issuedAt > NOT_ME_SECONDS * 1000) return "invalid";
  const [row] = await db
    .select({ email: users.email, changedAt: accounts.updatedAt })
    .from(users)
    .leftJoin(accounts, and(eq(accounts.userId, users.id), eq(accounts.providerId, "credential")))
    .where(eq(users.id, claims.userId))
    .limit(1);
  const email = row?.email.toLowerCase();
  // The account must still be at one of the two addresses the notice named (a deleted one is not).
  if (!row || (email !== claims.oldEmail.toLowerCase() && email !== claims.newEmail.toLowerCase())) return "invalid";
  return row.changedAt && row.changedAt.getTime() >= claims.issuedAt ? "used" : "valid";
}

export type NotMeResult = { done: false; state: Exclude<NotMeState, "valid"> } | { done: true; email: string; reverted: boolean; sessionsEnded: number };

/**
 * Undoes the change the notice was about, in one transaction: the address goes back when the change
 * was confirmed (and the old address is still free), the password is replaced by one nobody knows,
 * and every session ends. The caller mails a reset link to `email`.
 */
export async function undoAddressChange(db: Db, env: Env, token: string | null | undefined): Promise<NotMeResult> {
  const claims = readToken(env, token);
  const state = await linkState(db, claims);
  if (state !== "valid" || !claims) return { done: false, state: state === "valid" ? "invalid" : state };
  // Better Auth's own hash of a password nobody was told: a valid credential that never matches.
  const unusable = await hashPassword(randomBytes(32).toString("base64url"));
  const result = await db.transaction(async (tx) => {
    const [user] = await tx.select({ email: users.email }).from(users).where(eq(users.id, claims.userId)).for("update").limit(1);
    if (!user) return null;
    let email = user.email;
    let reverted = false;
    if (user.email.toLowerCase() === claims.newEmail.toLowerCase()) {
      const [taken] = await tx.select({ id: users.id }).from(users).where(sql`lower(${users.email}) = ${claims.oldEmail.toLowerCase()}`).limit(1);
      if (!taken) {
        await tx.update(users).set({ email: claims.oldEmail, emailVerified: true, updatedAt: new Date() }).where(eq(users.id, claims.userId));
        email = claims.oldEmail;
        reverted = true;
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
    return { email, reverted, ended: ended.map((s) => s.id) };
  });
  if (!result) return { done: false, state: "invalid" };
  noteSessionsEnded(result.ended);
  return { done: true, email: result.email, reverted: result.reverted, sessionsEnded: result.ended.length };
}
