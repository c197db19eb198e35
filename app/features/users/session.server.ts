import { replace, type AppLoadContext } from "react-router";
import { createHmac, timingSafeEqual } from "node:crypto";
import { and, eq, gt, lt, sql } from "drizzle-orm";
import type { Db } from "#app/db/client.server.ts";
import { profiles, sessions, users } from "#app/db/schema/users.ts";
import { ensureProfile, SESSION_COOKIE, SESSION_EXPIRES_IN_S, SESSION_UPDATE_AGE_S } from "./auth.server";
import type { Env } from "#app/lib/env.server.ts";
import { localeFromRequest } from "#app/lib/i18n.tsx";
import { pageUrlOf } from "#app/lib/data-url.ts";
import { errorResponse, pageError } from "#app/lib/api.server.ts";
import { AdminPageError, UserError } from "./errors";

/** Who is making the request, as every loader, action and socket handler sees it. */
export type Viewer = {
  id: string;
  /** The session this request signed in with (live sockets join `session:<id>` to end with it). */
  sessionId: string;
  email: string;
  displayName: string;
  friendId: string | null;
  isAdmin: boolean;
  suspended: boolean;
};

/**
 * Admins: the role granted by `npm run admin -- grant`, an id in ADMIN_USER_IDS, or an address in
 * ADMIN_EMAILS once it is verified. Anyone can sign up with any address, and without
 * REQUIRE_EMAIL_VERIFICATION nothing else proves they own it: the owner's address on the list
 * makes an administrator only after the link mailed to it at sign-up was opened.
 */
export function isAdminUser(env: Env, user: { id: string; email: string; emailVerified: boolean; role: string | null }): boolean {
  return user.role === "admin" || env.adminUserIds.includes(user.id) || (user.emailVerified && env.adminEmails.includes(user.email.toLowerCase()));
}

// last_active_at is written at most this often per user, not on every request.
const LAST_ACTIVE_RESOLUTION_MS = 5 * 60 * 1000;

/**
 * The session token from Better Auth's signed cookie (`<token>.<base64 HMAC-SHA256>`, signed with
 * the auth secret), or null when it is absent or its signature does not verify.
 */
export function sessionTokenFromCookie(cookieHeader: string | null, env: Env): string | null {
  return signedSessionCookie(cookieHeader, env)?.token ?? null;
}

const cookieName = (env: Env) => (env.siteUrl.startsWith("https:") ? `__Secure-${SESSION_COOKIE}` : SESSION_COOKIE);

/** The session cookie's raw value and its verified token, or null. */
function signedSessionCookie(cookieHeader: string | null, env: Env): { raw: string; token: string } | null {
  if (!cookieHeader) return null;
  const name = cookieName(env);
  let raw: string | undefined;
  for (const part of cookieHeader.split(";")) {
    const at = part.indexOf("=");
    if (at > 0 && part.slice(0, at).trim() === name) raw = part.slice(at + 1).trim();
  }
  if (!raw) return null;
  let value: string;
  try {
    value = decodeURIComponent(raw);
  } catch {
    return null;
  }
  const dot = value.lastIndexOf(".");
  if (dot < 1) return null;
  const token = value.slice(0, dot);
  const signature = Buffer.from(value.slice(dot + 1), "base64");
  const expected = createHmac("sha256", env.authSecret).update(token).digest();
  return signature.length === expected.length && timingSafeEqual(signature, expected) ? { raw, token } : null;
}

/**
 * Better Auth's sliding rule for a session read without it: once SESSION_UPDATE_AGE_S have passed
 * since the last refresh, the session gets a full SESSION_EXPIRES_IN_S again — in the database
 * (conditional, so concurrent requests extend it once) and, through `setCookie`, in the browser.
 */
async function slideSession(db: Db, env: Env, session: { raw: string; token: string }, expiresAt: Date, setCookie?: (cookie: string) => void) {
  const refreshedAt = expiresAt.getTime() - SESSION_EXPIRES_IN_S * 1000;
  if (Date.now() - refreshedAt < SESSION_UPDATE_AGE_S * 1000) return;
  const next = new Date(Date.now() + SESSION_EXPIRES_IN_S * 1000);
  const updated = await db
    .update(sessions)
    .set({ expiresAt: next, updatedAt: new Date() })
    .where(and(eq(sessions.token, session.token), lt(sessions.expiresAt, next), gt(sessions.expiresAt, sql`now()`)))
    .returning({ id: sessions.id });
  if (!updated.length || !setCookie) return;
  const secure = env.siteUrl.startsWith("https:");
  setCookie(
    `${cookieName(env)}=${session.raw}; Max-Age=${SESSION_EXPIRES_IN_S}; Path=/; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}`,
  );
}

/**
 * Resolves the session cookie in `headers`; null when signed out or the session is unknown or
 * expired. One query (session ⋈ user ⋈ profile) instead of Better Auth's getSession plus a
 * profile read: every signed-in page pays for this in its root loader.
 */
export async function getViewerFromHeaders(headers: Headers, db: Db, env: Env, setCookie?: (cookie: string) => void): Promise<Viewer | null> {
  const session = signedSessionCookie(headers.get("cookie"), env);
  if (!session) return null;
  const token = session.token;
  let found = await readViewerRow(db, token);
  if (!found) return null;
  await slideSession(db, env, session, found.sessionExpiresAt, setCookie);
  if (found.displayName === null) {
    // A user created before their profile row (or by hand): create it now.
    await ensureProfile(db, found.userId, found.name);
    found = await readViewerRow(db, token);
    if (!found || found.displayName === null) return null;
  }
  const now = Date.now();
  const userId = found.userId;
  if (!found.lastActiveAt || now - found.lastActiveAt.getTime() > LAST_ACTIVE_RESOLUTION_MS) {
    await db
      .update(profiles)
      .set({ lastActiveAt: new Date(now) })
      .where(and(eq(profiles.userId, userId), lt(profiles.lastActiveAt, new Date(now - LAST_ACTIVE_RESOLUTION_MS))));
  }
  // The session's own "last active" (the account settings' device list), at the same resolution.
  if (now - found.sessionUpdatedAt.getTime() > LAST_ACTIVE_RESOLUTION_MS) {
    await db
      .update(sessions)
      .set({ updatedAt: new Date(now) })
      .where(and(eq(sessions.token, token), lt(sessions.updatedAt, new Date(now - LAST_ACTIVE_RESOLUTION_MS))));
  }
  return {
    id: userId,
    sessionId: found.sessionId,
    email: found.email,
    displayName: found.displayName,
    friendId: found.friendId,
    isAdmin: isAdminUser(env, { id: userId, email: found.email, emailVerified: found.emailVerified, role: found.role }),
    suspended: found.suspendedAt !== null,
  };
}

function viewerQuery(db: Db) {
  return db
    .select({
      userId: users.id,
      name: users.name,
      email: users.email,
      emailVerified: users.emailVerified,
      role: users.role,
      displayName: profiles.displayName,
      friendId: profiles.friendId,
      suspendedAt: profiles.suspendedAt,
      lastActiveAt: profiles.lastActiveAt,
      sessionId: sessions.id,
      sessionExpiresAt: sessions.expiresAt,
      sessionUpdatedAt: sessions.updatedAt,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .leftJoin(profiles, eq(profiles.userId, users.id))
    .where(and(eq(sessions.token, sql.placeholder("token")), gt(sessions.expiresAt, sql`now()`)))
    .limit(1)
    .prepare("viewer_by_session_token");
}

// Every signed-in request runs this query: built once per database handle and prepared by name,
// so neither Drizzle nor PostgreSQL plans it again for each request.
const preparedViewerQuery = new WeakMap<Db, ReturnType<typeof viewerQuery>>();

async function readViewerRow(db: Db, token: string) {
  let query = preparedViewerQuery.get(db);
  if (!query) {
    query = viewerQuery(db);
    preparedViewerQuery.set(db, query);
  }
  const [row] = await query.execute({ token });
  return row;
}

// The root loader and a page's loader both ask during one GET: resolve the session once. React
// Router hands each loader its own Request, so the answer is kept on the request's load context
// (one per HTTP request), for the cookie it was read with. (Not for POSTs: an action may change
// what the loaders after it must see; they run after it as GETs and read the session anew.) A
// caller that hands one context to several requests (a test) gets the first answer for a cookie.
const viewerOfRequest = new WeakMap<object, { cookie: string | null; viewer: Promise<Viewer | null> }>();

export async function getViewer(request: Request, context: AppLoadContext): Promise<Viewer | null> {
  if (request.method !== "GET" && request.method !== "HEAD") return getViewerFromHeaders(request.headers, context.db, context.env, context.setCookie);
  const cookie = request.headers.get("cookie");
  const kept = viewerOfRequest.get(context);
  if (kept && kept.cookie === cookie) return kept.viewer;
  const viewer = getViewerFromHeaders(request.headers, context.db, context.env, context.setCookie);
  viewerOfRequest.set(context, { cookie, viewer });
  return viewer;
}

/** The path + search to come back to after logging in. */
function currentPath(request: Request): string {
  // A client navigation's `.data` request comes back to its page, not to the data URL.
  const url = pageUrlOf(request);
  return url.pathname + url.search;
}

/**
 * Pages: signed out → 302 to /login?redirectTo=<this page> (client navigations replace the
 * history entry, docs/product-rules.md §2); suspended → 403.
 */
export async function requireViewer(request: Request, context: AppLoadContext): Promise<Viewer> {
  const viewer = await getViewer(request, context);
  if (!viewer) {
    throw replace(`/login?redirectTo=${encodeURIComponent(currentPath(request))}`);
  }
  if (viewer.suspended) throw pageError(new UserError("suspended"), localeFromRequest(request));
  return viewer;
}

/** APIs: 401 JSON when signed out, 403 JSON when suspended. */
export async function requireApiViewer(request: Request, context: AppLoadContext): Promise<Viewer> {
  const viewer = await getViewer(request, context);
  const locale = localeFromRequest(request);
  if (!viewer) throw errorResponse(new UserError("login_required"), locale);
  if (viewer.suspended) throw errorResponse(new UserError("suspended"), locale);
  return viewer;
}

/**
 * Admin pages: throws the route error data `{code, message}` with 401 | 403 for the route's error
 * boundary (docs/product-rules.md §6: ログインが必要です / 管理者権限がありません). Nothing of the admin data is
 * loaded before this.
 */
export async function requireAdmin(request: Request, context: AppLoadContext): Promise<Viewer> {
  const viewer = await getViewer(request, context);
  const locale = localeFromRequest(request);
  if (!viewer) throw pageError(new UserError("login_required"), locale);
  if (!viewer.isAdmin || viewer.suspended) throw pageError(new AdminPageError(), locale);
  return viewer;
}

/** Admin APIs and actions: 401 / 403 JSON `{error, code}` (docs/product-rules.md §8: 管理者権限がありません。). */
export async function requireApiAdmin(request: Request, context: AppLoadContext): Promise<Viewer> {
  const viewer = await getViewer(request, context);
  const locale = localeFromRequest(request);
  if (!viewer) throw errorResponse(new UserError("login_required"), locale);
  if (!viewer.isAdmin || viewer.suspended) throw errorResponse(new UserError("admin_required"), locale);
  return viewer;
}
