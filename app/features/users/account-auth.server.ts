import { AsyncLocalStorage } from "node:async_hooks";
import { APIError, getSessionFromCtx, isAPIError } from "better-auth/api";
import { and, eq } from "drizzle-orm";
import type { Db } from "#app/db/client.server.ts";
import { accounts, users, verifications } from "#app/db/schema/users.ts";
import { databaseLimit } from "#app/lib/rate-limit.server.ts";
import { isAddressReserved, prepareNotMeLink } from "./address-change.server";
import type { AppError, ErrorAnswer } from "#app/lib/errors.ts";
import type { Env } from "#app/lib/env.server.ts";
import { localeFromRequest, translate, type Locale } from "#app/lib/i18n.tsx";
import { accountMessages } from "./account-messages";
import { usersMessages } from "./messages";
import { queueEmailChangeMails, queuePasswordChangedMail, queuePasswordResetMail, queueVerificationMail } from "./account-mail.server";
import { isCommonPassword } from "./common-passwords.server";
import { EMAIL_MAX, hasControlCharacters, PASSWORD_MAX, PASSWORD_MIN } from "./display-name";
import { UserError } from "./errors";
import { AccountError } from "./account-errors";
import { clearSignInFailures, recordSignInFailure, signInWaitMinutes } from "./sign-in-guard.server";
import { z } from "#app/lib/zod.ts";

/**
 * Better Auth's own account flows, wired to Torepoke's mail (features/mail through the outbox):
 * password reset (a link valid for one hour, every session ended after it, a confirmation mail),
 * address verification at sign-up (REQUIRE_EMAIL_VERIFICATION makes sign-in wait for it) and
 * change of address (confirmed from the new address, the old one told). auth.server.ts merges
 * these options and calls accountBeforeHook from its before hook.
 */
export const RESET_TOKEN_SECONDS = 60 * 60;
export const VERIFY_TOKEN_SECONDS = 24 * 60 * 60;

const localeOf = (request: Request | undefined): Locale => (request ? localeFromRequest(request) : "ja");

const API_STATUS = { 401: "UNAUTHORIZED", 403: "FORBIDDEN", 404: "NOT_FOUND", 409: "CONFLICT", 422: "UNPROCESSABLE_ENTITY", 429: "TOO_MANY_REQUESTS" } as const;

/** A refusal of ours inside Better Auth: its APIError with our status, code and message in the caller's language. */
export function refuse(headers: Headers | undefined, error: AppError) {
  const locale = headers ? localeFromRequest({ headers } as Request) : "ja";
  const status = API_STATUS[error.status as keyof typeof API_STATUS] ?? "BAD_REQUEST";
  return new APIError(status, { message: error.text(locale), code: error.code });
}

/** The reset page of this site for a Better Auth reset token (the mail links here, not to the API). */
export const resetPageUrl = (env: Pick<Env, "siteUrl">, token: string) => `${env.siteUrl}/reset-password?token=${encodeURIComponent(token)}`;

// A log-in refused for an unverified address tells whether this very attempt queued a new
// verification mail (one per address per window: a second attempt queues none).
const verificationMailWatch = new AsyncLocalStorage<{ queued: boolean }>();

/** Runs an auth call and answers, beside its result, whether it queued a verification mail. */
export async function watchVerificationMail<T>(run: () => Promise<T>): Promise<{ result: T; verificationMailQueued: boolean }> {
  const watch = { queued: false };
  const result = await verificationMailWatch.run(watch, run);
  return { result, verificationMailQueued: watch.queued };
}

export function accountAuthOptions(db: Db, env: Env) {
  return {
    emailAndPassword: {
      requireEmailVerification: env.requireEmailVerification,
      resetPasswordTokenExpiresIn: RESET_TOKEN_SECONDS,
      revokeSessionsOnPasswordReset: true,
      sendResetPassword: async ({ user, token }: { user: { id: string; email: string; name: string }; token: string }, request?: Request) => {
        await queuePasswordResetMail(db, { locale: localeOf(request), siteUrl: env.siteUrl }, user, resetPageUrl(env, token));
      },
      onPasswordReset: async ({ user }: { user: { email: string; name: string } }, request?: Request) => {
        // Whoever reset the password holds the mailbox: the address's failed sign-ins are forgotten.
        await clearSignInFailures(db, user.email);
        await queuePasswordChangedMail(db, { locale: localeOf(request), siteUrl: env.siteUrl }, user);
      },
    },
    emailVerification: {
      sendOnSignUp: true,
      // With verification required, a sign-in attempt before it sends the link again.
      sendOnSignIn: env.requireEmailVerification,
      autoSignInAfterVerification: true,
      expiresIn: VERIFY_TOKEN_SECONDS,
      sendVerificationEmail: async ({ user, url }: { user: { id: string; email: string; name: string }; url: string }, request?: Request) => {
        const ctx = { locale: localeOf(request), siteUrl: env.siteUrl };
        const [stored] = await db.select({ email: users.email }).from(users).where(eq(users.id, user.id)).limit(1);
        // Better Auth sends the change-of-address link through this same callback, to the new address.
        if (stored && stored.email.toLowerCase() !== user.email.toLowerCase()) {
          await db.transaction(async (tx) => {
            const undo = await prepareNotMeLink(tx, env, { userId: user.id, oldEmail: stored.email, newEmail: user.email });
            await queueEmailChangeMails(tx, ctx, { id: user.id, oldEmail: stored.email, newEmail: user.email, name: user.name }, url, undo);
          });
          return;
        }
        const queued = await queueVerificationMail(db, ctx, user, url);
        const watch = verificationMailWatch.getStore();
        if (watch && queued) watch.queued = true;
      },
    },
    changeEmail: { enabled: true },
  };
}

const emailShape = z.string().trim().max(EMAIL_MAX).pipe(z.email());

function checkNewPassword(headers: Headers | undefined, password: unknown) {
  if (typeof password !== "string" || password.length < PASSWORD_MIN || password.length > PASSWORD_MAX) {
    throw refuse(headers, new UserError("password_length", { min: PASSWORD_MIN, max: PASSWORD_MAX }));
  }
  if (isCommonPassword(password)) throw refuse(headers, new UserError("password_common"));
}

/**
 * Changes of address one account may ask for in a day (JST): each mails a stranger's address, so
 * a stolen session (with the password) cannot use the site to mail twenty addresses.
 */
export const ADDRESS_CHANGES_PER_DAY = 3;
const addressChangeLimit = databaseLimit({ name: "change-email", max: ADDRESS_CHANGES_PER_DAY, window: "day" });

/**
 * Our rules in front of Better Auth's account endpoints (the common-password rule, address shape,
 * per-account back-off, addresses held for an account after a change). "answered-ok": the caller
 * answers `{status: true}` without running the endpoint, as Better Auth does for a taken address.
 */
export async function accountBeforeHook(db: Db, ctx: Parameters<typeof getSessionFromCtx>[0] & { path: string; body?: unknown; headers?: Headers }, clientIp: string | null): Promise<"answered-ok" | void> {
  const body = (ctx.body ?? {}) as Record<string, unknown>;
  switch (ctx.path) {
    case "/sign-up/email":
      // Held for the account that changed away from it, so its owner's これは私ではありません can bring it back.
      if (typeof body.email === "string" && !hasControlCharacters(body.email) && (await isAddressReserved(db, body.email))) throw refuse(ctx.headers, new UserError("email_taken"));
      return;
    case "/sign-in/email": {
      // An address PostgreSQL cannot hold (NUL) is refused by the sign-in check after this one.
      if (typeof body.email !== "string" || hasControlCharacters(body.email)) return;
      const minutes = await signInWaitMinutes(db, body.email, clientIp);
      if (minutes > 0) throw refuse(ctx.headers, new AccountError("account_locked", { minutes }));
      return;
    }
    case "/request-password-reset":
      if (typeof body.email !== "string" || hasControlCharacters(body.email) || !emailShape.safeParse(body.email).success) {
        throw refuse(ctx.headers, new UserError("email_invalid"));
      }
      return;
    case "/reset-password":
      checkNewPassword(ctx.headers, body.newPassword);
      if (typeof body.token === "string" && !(await isResetTokenCurrent(db, body.token))) throw refuse(ctx.headers, new AccountError("invalid_token"));
      return;
    case "/change-password":
      checkNewPassword(ctx.headers, body.newPassword);
      return;
    case "/change-email": {
      if (typeof body.newEmail !== "string" || hasControlCharacters(body.newEmail) || !emailShape.safeParse(body.newEmail).success) {
        throw refuse(ctx.headers, new UserError("email_invalid"));
      }
      // Counted before Better Auth looks at the address, so a taken address counts like a free one.
      const session = await getSessionFromCtx(ctx);
      if (!session) return;
      if (!(await addressChangeLimit.take(session.user.id, db))) {
        throw refuse(ctx.headers, new AccountError("address_change_limited", { max: ADDRESS_CHANGES_PER_DAY }));
      }
      // An address held for another account answers like a taken one: nothing is sent, nothing tells.
      if (await isAddressReserved(db, body.newEmail, session.user.id)) return "answered-ok";
      return;
    }
  }
}

/**
 * Whether a password-reset token is still one the account's owner could use: it exists, has not
 * expired, and was issued after the password last changed. A change of password (or a completed
 * reset, or これは私ではありません) makes every link mailed before it useless, so a link read in a
 * mailbox someone else saw cannot undo the change.
 */
export async function isResetTokenCurrent(db: Db, token: string): Promise<boolean> {
  // A NUL or other control character cannot be in a token we made, and PostgreSQL cannot compare it.
  if (token.length === 0 || token.length > 200 || hasControlCharacters(token)) return false;
  const [row] = await db
    .select({ issuedAt: verifications.createdAt, expiresAt: verifications.expiresAt, changedAt: accounts.updatedAt })
    .from(verifications)
    .leftJoin(accounts, and(eq(accounts.userId, verifications.value), eq(accounts.providerId, "credential")))
    .where(eq(verifications.identifier, `reset-password:${token}`))
    .limit(1);
  if (!row || row.expiresAt.getTime() <= Date.now()) return false;
  return !row.changedAt || row.changedAt.getTime() < row.issuedAt.getTime();
}

/** The claims of a Better Auth e-mail token, read without checking it (/verify-email checks it next). */
function tokenClaims(token: unknown): { email?: unknown; updateTo?: unknown; iat?: unknown } | null {
  if (typeof token !== "string") return null;
  const payload = token.split(".")[1];
  if (!payload) return null;
  try {
    return JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as { email?: unknown; updateTo?: unknown; iat?: unknown };
  } catch {
    return null;
  }
}

/**
 * Whether a change-of-address link was issued before the account's password last changed: such a
 * link is refused, so a link requested by someone who has since been locked out (password reset or
 * change) cannot take the account over. The credential row's updated_at moves only when Better Auth
 * writes a new password; at sign-up it equals created_at. iat has whole seconds, so a link requested
 * in the same second as a password change counts as older (the user asks again).
 */
export async function isStaleAddressChange(db: Db, token: unknown): Promise<boolean> {
  const claims = tokenClaims(token);
  if (!claims || typeof claims.updateTo !== "string" || typeof claims.email !== "string" || typeof claims.iat !== "number") return false;
  const [credential] = await db
    .select({ createdAt: accounts.createdAt, updatedAt: accounts.updatedAt })
    .from(accounts)
    .innerJoin(users, eq(users.id, accounts.userId))
    .where(and(eq(users.email, claims.email.toLowerCase()), eq(accounts.providerId, "credential")))
    .limit(1);
  if (!credential) return false;
  const changedAt = credential.updatedAt.getTime();
  // Sign-up writes both stamps from two clock reads: a few milliseconds apart at most.
  if (changedAt - credential.createdAt.getTime() < 10) return false;
  return claims.iat * 1000 <= changedAt;
}

/** After Better Auth answered a sign-in: count a wrong password for the address, clear the count on success. */
export async function accountAfterHook(db: Db, ctx: { path: string; body?: unknown; context: { returned?: unknown } }, clientIp: string | null): Promise<void> {
  if (ctx.path !== "/sign-in/email") return;
  const email = (ctx.body as { email?: unknown } | undefined)?.email;
  if (typeof email !== "string") return;
  const returned = ctx.context.returned;
  if (isAPIError(returned)) {
    if (returned.statusCode === 401) await recordSignInFailure(db, email, clientIp);
    return;
  }
  await clearSignInFailures(db, email);
}

const AuthRefusalBody = z.object({ code: z.string().optional(), message: z.string().optional() });

/**
 * Better Auth's refusal read into the page refusal's parts: its status, its code in lower case
 * (`auth_failed` when it gave none) and its message, which the auth hooks above wrote in the
 * caller's language (usersMessages' "something went wrong" when it gave none).
 */
export async function authRefusal(response: Response, locale: Locale): Promise<ErrorAnswer> {
  const parsed = AuthRefusalBody.safeParse(await response.json().catch(() => null));
  const body = parsed.success ? parsed.data : {};
  return { status: response.status, code: (body.code ?? "auth_failed").toLowerCase(), message: body.message ?? translate(usersMessages, locale, "errorUnknown") };
}

/**
 * The log-in page's text for Better Auth's refusal of an unverified address
 * (REQUIRE_EMAIL_VERIFICATION): it says the mail was sent again only when this attempt queued one.
 */
export function accountLoginRefusal(code: string, locale: Locale, verificationMailQueued: boolean): string | undefined {
  if (code === "email_not_verified") return translate(accountMessages, locale, verificationMailQueued ? "verifyRequired" : "verifyRequiredRecentlySent");
  return undefined;
}
