import { and, eq, ne } from "drizzle-orm";
import type { Db } from "#app/db/client.server.ts";
import { accounts } from "#app/db/schema/users.ts";
import type { Env } from "#app/lib/env.server.ts";
import { AccountError } from "./account-errors";
import { verifyAccountPassword } from "./account.server";
import { callAuthEndpoint, cookiesOf } from "./auth.server";
import { LINE_PROVIDER_ID } from "./line-login.server";
import { safeRedirect } from "./safe-redirect";

/**
 * ログイン方法: the ways into an account (a password, LINE) and the rules for adding and removing
 * them (docs/decisions/037-line-login.md). Linking and unlinking go through the library's own
 * endpoints, after the checks here.
 */
export type LoginMethods = { password: boolean; line: { linkedAt: Date } | null; lineAvailable: boolean };

export async function loginMethods(db: Db, env: Pick<Env, "line">, userId: string): Promise<LoginMethods> {
  const rows = await db.select({ providerId: accounts.providerId, password: accounts.password, createdAt: accounts.createdAt }).from(accounts).where(eq(accounts.userId, userId));
  const line = rows.find((r) => r.providerId === LINE_PROVIDER_ID);
  return {
    password: rows.some((r) => r.providerId === "credential" && !!r.password),
    line: line ? { linkedAt: line.createdAt } : null,
    lineAvailable: !!env.line,
  };
}

/** The ways in other than `providerId`: a password, or another provider. */
async function otherWaysIn(db: Db, userId: string, providerId: string): Promise<number> {
  const rows = await db
    .select({ providerId: accounts.providerId, password: accounts.password })
    .from(accounts)
    .where(and(eq(accounts.userId, userId), ne(accounts.providerId, providerId)));
  return rows.filter((r) => r.providerId !== "credential" || !!r.password).length;
}

/** A LINE redirect the browser follows, with the library's state cookie. */
export type ProviderRedirect = { url: string; headers: Headers };

async function providerRedirect(response: Response): Promise<ProviderRedirect> {
  const body = (await response.json().catch(() => null)) as { url?: unknown } | null;
  if (!response.ok || typeof body?.url !== "string") throw new AccountError("line_unavailable");
  return { url: body.url, headers: cookiesOf(response) };
}

/**
 * Starts a sign-in (or, for someone new, a sign-up) with LINE: back to `redirectTo` afterwards, a
 * new player to their profile (the friend-ID prompt), a refusal to /login with its code.
 */
export async function startLineSignIn(db: Db, env: Env, request: Request, input: { redirectTo: string; newUserTo: string }): Promise<ProviderRedirect> {
  if (!env.line) throw new AccountError("line_unavailable");
  const response = await callAuthEndpoint(db, env, request, "/sign-in/social", {
    provider: LINE_PROVIDER_ID,
    callbackURL: safeRedirect(input.redirectTo),
    newUserCallbackURL: safeRedirect(input.newUserTo, "/profile"),
    errorCallbackURL: "/login",
  });
  return providerRedirect(response);
}

/**
 * Links LINE to the signed-in account, after its password (a session alone must not add a way in:
 * a borrowed device, a stolen cookie). An account without a password has LINE already.
 */
export async function startLineLink(db: Db, env: Env, request: Request, userId: string, password: string): Promise<ProviderRedirect> {
  if (!env.line) throw new AccountError("line_unavailable");
  if (!(await verifyAccountPassword(db, env, userId, password))) throw new AccountError("current_password_wrong");
  const response = await callAuthEndpoint(db, env, request, "/link-social", {
    provider: LINE_PROVIDER_ID,
    callbackURL: "/profile/account?lineLinked=1",
    errorCallbackURL: "/profile/account",
  });
  return providerRedirect(response);
}

/** Unlinks LINE, only while another way in remains (a password or another provider). */
export async function unlinkLine(db: Db, env: Env, request: Request, userId: string): Promise<void> {
  if ((await otherWaysIn(db, userId, LINE_PROVIDER_ID)) === 0) throw new AccountError("last_login_method");
  const [row] = await db.select({ id: accounts.id }).from(accounts).where(and(eq(accounts.userId, userId), eq(accounts.providerId, LINE_PROVIDER_ID))).limit(1);
  if (!row) return;
  // The library names the row to unlink by its own ID, and wants a session from the last day.
  const response = await callAuthEndpoint(db, env, request, "/unlink-account", { accountId: row.id });
  if (response.ok) return;
  const body = (await response.json().catch(() => null)) as { code?: unknown } | null;
  if (body?.code === "SESSION_NOT_FRESH") throw new AccountError("fresh_sign_in_required");
  throw new AccountError("last_login_method");
}
