import { data, replace, type AppLoadContext } from "react-router";
import { and, eq, lt } from "drizzle-orm";
import type { Db } from "../../db/client.server";
import { profiles, users } from "../../db/schema/users";
import { ensureProfile, getAuth } from "../../lib/auth.server";
import type { Env } from "../../lib/env.server";
import { localeFromRequest, translate } from "../../lib/i18n";
import { usersMessages } from "./messages";

/** Who is making the request, as every loader, action and socket handler sees it. */
export type Viewer = {
  id: string;
  email: string;
  displayName: string;
  friendId: string | null;
  isAdmin: boolean;
  suspended: boolean;
};

/** Admins: id or e-mail in ADMIN_USER_IDS / ADMIN_EMAILS, or the role granted by `npm run admin`. */
export function isAdminUser(env: Env, user: { id: string; email: string; role: string | null }): boolean {
  return user.role === "admin" || env.adminUserIds.includes(user.id) || env.adminEmails.includes(user.email.toLowerCase());
}

// last_active_at is written at most this often per user, not on every request.
const LAST_ACTIVE_RESOLUTION_MS = 5 * 60 * 1000;

/** Resolves the session cookie in `headers`; null when signed out or the session is unknown. */
export async function getViewerFromHeaders(headers: Headers, db: Db, env: Env): Promise<Viewer | null> {
  if (!/(?:^|;\s*)(?:__Secure-)?torepoke\.session_token=/.test(headers.get("cookie") ?? "")) return null;
  const session = await getAuth(db, env).api.getSession({ headers, query: { disableRefresh: true } });
  if (!session) return null;
  const userId = session.user.id;
  const row = await readViewerRow(db, userId);
  let found = row;
  if (!found) {
    await ensureProfile(db, userId, session.user.name);
    found = await readViewerRow(db, userId);
    if (!found) return null;
  }
  const now = Date.now();
  if (now - found.lastActiveAt.getTime() > LAST_ACTIVE_RESOLUTION_MS) {
    await db
      .update(profiles)
      .set({ lastActiveAt: new Date(now) })
      .where(and(eq(profiles.userId, userId), lt(profiles.lastActiveAt, new Date(now - LAST_ACTIVE_RESOLUTION_MS))));
  }
  return {
    id: userId,
    email: found.email,
    displayName: found.displayName,
    friendId: found.friendId,
    isAdmin: isAdminUser(env, { id: userId, email: found.email, role: found.role }),
    suspended: found.suspendedAt !== null,
  };
}

async function readViewerRow(db: Db, userId: string) {
  const [row] = await db
    .select({
      email: users.email,
      role: users.role,
      displayName: profiles.displayName,
      friendId: profiles.friendId,
      suspendedAt: profiles.suspendedAt,
      lastActiveAt: profiles.lastActiveAt,
    })
    .from(users)
    .innerJoin(profiles, eq(profiles.userId, users.id))
    .where(eq(users.id, userId))
    .limit(1);
  return row;
}

// The root loader and a page's loader both ask during one GET: resolve the session once.
// (Not for POSTs: an action may change what the loaders after it must see.)
const viewerOfRequest = new WeakMap<Request, Promise<Viewer | null>>();

export async function getViewer(request: Request, context: AppLoadContext): Promise<Viewer | null> {
  if (request.method !== "GET" && request.method !== "HEAD") return getViewerFromHeaders(request.headers, context.db, context.env);
  let viewer = viewerOfRequest.get(request);
  if (!viewer) {
    viewer = getViewerFromHeaders(request.headers, context.db, context.env);
    viewerOfRequest.set(request, viewer);
  }
  return viewer;
}

/** The path + search to come back to after logging in. */
function currentPath(request: Request): string {
  const url = new URL(request.url);
  return url.pathname + url.search;
}

/**
 * Pages: signed out → 302 to /login?redirectTo=<this page> (client navigations replace the
 * history entry, SPEC.md §2); suspended → 403.
 */
export async function requireViewer(request: Request, context: AppLoadContext): Promise<Viewer> {
  const viewer = await getViewer(request, context);
  if (!viewer) {
    throw replace(`/login?redirectTo=${encodeURIComponent(currentPath(request))}`);
  }
  if (viewer.suspended) {
    throw data({ message: translate(usersMessages, localeFromRequest(request), "errorSuspended") }, { status: 403 });
  }
  return viewer;
}

/** APIs: 401 JSON when signed out, 403 JSON when suspended. */
export async function requireApiViewer(request: Request, context: AppLoadContext): Promise<Viewer> {
  const viewer = await getViewer(request, context);
  const locale = localeFromRequest(request);
  if (!viewer) throw Response.json({ error: translate(usersMessages, locale, "errorLoginRequired") }, { status: 401 });
  if (viewer.suspended) throw Response.json({ error: translate(usersMessages, locale, "errorSuspended") }, { status: 403 });
  return viewer;
}

/** Admin messages of SPEC.md §6, character for character. */
export const ADMIN_LOGIN_REQUIRED = "ログインが必要です";
export const ADMIN_FORBIDDEN = "管理者権限がありません";

/**
 * Admin pages: throws `data({ reason }, 401 | 403)` for the route's error boundary to render
 * (ログインが必要です / 管理者権限がありません). Nothing of the admin data is loaded before this.
 */
export async function requireAdmin(request: Request, context: AppLoadContext): Promise<Viewer> {
  const viewer = await getViewer(request, context);
  if (!viewer) throw data({ reason: "login-required" as const, message: ADMIN_LOGIN_REQUIRED }, { status: 401 });
  if (!viewer.isAdmin || viewer.suspended) throw data({ reason: "forbidden" as const, message: ADMIN_FORBIDDEN }, { status: 403 });
  return viewer;
}

/** Admin APIs and actions: 401 / 403 JSON `{ error }`. */
export async function requireApiAdmin(request: Request, context: AppLoadContext): Promise<Viewer> {
  const viewer = await getViewer(request, context);
  if (!viewer) throw Response.json({ error: ADMIN_LOGIN_REQUIRED }, { status: 401 });
  if (!viewer.isAdmin || viewer.suspended) throw Response.json({ error: `${ADMIN_FORBIDDEN}。` }, { status: 403 });
  return viewer;
}
