import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { createAuthMiddleware, isAPIError } from "better-auth/api";
import { eq } from "drizzle-orm";
import type { Db } from "#app/db/client.server.ts";
import * as schema from "#app/db/schema/index.ts";
import { profiles } from "#app/db/schema/users.ts";
import { isCommonPassword } from "./common-passwords.server";
import { checkDisplayName, DISPLAY_NAME_MAX, EMAIL_MAX, hasControlCharacters, PASSWORD_MAX, PASSWORD_MIN } from "./display-name";
import { FROM_BETTER_AUTH, UserError } from "./errors";
import { safeRedirect } from "./safe-redirect";
import { describeAppError } from "#app/lib/errors.ts";
import { errorResponse, HttpError } from "#app/lib/api.server.ts";
import type { Env } from "#app/lib/env.server.ts";
import { localeFromRequest, type Locale } from "#app/lib/i18n.tsx";
import { createLogger } from "#app/lib/logger.server.ts";
import { noteSessionsEnded } from "#app/lib/session-end.server.ts";
import { LINE_PROVIDER_ID, lineLoginPlugin } from "./line-login.server";
import { accountAfterHook, accountAuthOptions, accountBeforeHook, isStaleAddressChange, refuse } from "./account-auth.server";

/**
 * Better Auth sees the client address only through this header, which server/http.ts sets from
 * Express's `req.ip` (TRUST_PROXY: loopback unless set) and overwrites on every request, so a client cannot
 * pick its own rate-limit bucket by sending X-Forwarded-For.
 */
export const CLIENT_IP_HEADER = "x-torepoke-client-ip";
export const AUTH_BASE_PATH = "/api/auth";
/** Better Auth's session cookie with our prefix (`__Secure-` in front under https). */
export const SESSION_COOKIE = "torepoke.session_token";

/**
 * What a browser may call at /api/auth itself: signing up, in and out, reading its own session,
 * and opening a mailed verification link. Every other endpoint of the library is reached only
 * through callAuthEndpoint, from a page action that makes its own checks first (the account page
 * asks for the current password before a change of address): a request from outside answers 404
 * as if the endpoint did not exist. docs/decisions/028-auth-endpoints-behind-our-pages.md lists
 * every endpoint of the library with why it is open, ours only, or closed.
 */
export const PUBLIC_AUTH_ENDPOINTS: ReadonlySet<string> = new Set([
  "POST /sign-up/email",
  "POST /sign-in/email",
  "POST /sign-out",
  "GET /get-session",
  "GET /verify-email",
  "GET /ok",
  "GET /error",
]);

// Endpoints Torepoke does not use at all (profile edits, re-sending the verification mail,
// sessions and deleting the account go through our own validated actions; the account page lists
// the linked ways in itself): disabled inside the library too, so not even a page action could
// reach them by mistake. Reset, verification and change of address are Better Auth's own
// (features/users/account-auth.server.ts).
export const DISABLED_AUTH_PATHS: readonly string[] = [
  "/update-user",
  "/delete-user",
  "/delete-user/callback",
  "/send-verification-email",
  "/list-accounts",
  "/refresh-token",
  "/get-access-token",
  "/account-info",
  "/list-sessions",
  "/revoke-session",
  "/revoke-sessions",
  "/revoke-other-sessions",
  "/update-session",
  "/verify-password",
];

/** LINE Login's endpoints (docs/decisions/037-line-login.md): disabled too when LINE is not configured. */
export const LINE_PAGE_AUTH_PATHS = ["/sign-in/social", "/link-social", "/unlink-account"] as const;

/** The library's paths disabled under this configuration. */
export function disabledAuthPaths(env: Pick<Env, "line">): string[] {
  return env.line ? [...DISABLED_AUTH_PATHS] : [...DISABLED_AUTH_PATHS, ...LINE_PAGE_AUTH_PATHS];
}

/**
 * What a browser may call under this configuration: PUBLIC_AUTH_ENDPOINTS, and with LINE Login
 * the callback LINE sends the player back to (the library checks its state, our before hook its
 * callbacks). No other provider's callback is open.
 */
export function publicAuthEndpoints(env: Pick<Env, "line">): ReadonlySet<string> {
  return env.line ? new Set([...PUBLIC_AUTH_ENDPOINTS, `GET /callback/${LINE_PROVIDER_ID}`]) : PUBLIC_AUTH_ENDPOINTS;
}

/** The fields of the library's endpoints that name where to send the browser next. */
const CALLBACK_FIELDS = ["callbackURL", "newUserCallbackURL", "errorCallbackURL", "redirectTo"] as const;

/**
 * Every callback of every auth endpoint through the site's one safe-redirect rule: a value that is
 * not a path of this site becomes "/", and what is kept is percent-encoded, so a redirect's
 * Location header never holds another origin or a character HTTP headers cannot carry.
 */
function safeCallbacks<T>(fields: T): T {
  if (!fields || typeof fields !== "object") return fields;
  const record = fields as Record<string, unknown>;
  if (!CALLBACK_FIELDS.some((name) => name in record)) return fields;
  const safe: Record<string, unknown> = { ...record };
  for (const name of CALLBACK_FIELDS) {
    if (name in safe) safe[name] = safeRedirect(typeof safe[name] === "string" ? safe[name] : null);
  }
  return safe as T;
}

const localeOf = (headers: Headers | undefined): Locale => (headers ? localeFromRequest({ headers } as Request) : "ja");


export type AuthOptions = { rateLimitMax?: number };

/**
 * Sessions slide: one lasts SESSION_EXPIRES_IN_S from its last refresh, and a request made more
 * than SESSION_UPDATE_AGE_S after that refresh extends it again (features/users/session.server.ts
 * does this for the sessions it reads itself, with Better Auth's rule).
 */
export const SESSION_EXPIRES_IN_S = 60 * 60 * 24 * 30;
export const SESSION_UPDATE_AGE_S = 60 * 60 * 24;

function withoutProviderTokens<T extends { providerId?: string | null }>(account: T): T {
  if (account.providerId === undefined || account.providerId === "credential") return account;
  return { ...account, accessToken: null, refreshToken: null, idToken: null, accessTokenExpiresAt: null, refreshTokenExpiresAt: null };
}

/** Extra arguments of a Better Auth log line as JSON fields (errors by message and stack). */
function detailsOf(args: unknown[]): Record<string, unknown> | undefined {
  if (!args.length) return undefined;
  return { details: args.map((arg) => (arg instanceof Error ? { error: arg.message, stack: arg.stack } : arg)) };
}

function createAuth(db: Db, env: Env, options: AuthOptions = {}) {
  const log = createLogger(env.logLevel);
  const secure = env.siteUrl.startsWith("https:");
  const rateLimitMax = options.rateLimitMax ?? env.authRateLimitMax;
  const account = accountAuthOptions(db, env);
  return betterAuth({
    appName: "Torepoke",
    baseURL: env.siteUrl,
    basePath: AUTH_BASE_PATH,
    secret: env.authSecret,
    trustedOrigins: [env.siteUrl],
    database: drizzleAdapter(db, { provider: "pg", usePlural: true, schema }),
    user: {
      additionalFields: {
        // Granted only by `npm run admin -- grant`; never accepted from a request body.
        role: { type: "string", required: false, defaultValue: "user", input: false },
      },
      changeEmail: account.changeEmail,
    },
    emailVerification: account.emailVerification,
    emailAndPassword: {
      enabled: true,
      minPasswordLength: PASSWORD_MIN,
      maxPasswordLength: PASSWORD_MAX,
      autoSignIn: true,
      ...account.emailAndPassword,
    },
    session: {
      expiresIn: SESSION_EXPIRES_IN_S,
      updateAge: SESSION_UPDATE_AGE_S,
    },
    disabledPaths: [...disabledAuthPaths(env)],
    plugins: env.line ? [lineLoginPlugin(env.line, env.authSecret)] : [],
    account: {
      accountLinking: {
        enabled: true,
        // Linking is only ever asked for (the account page, after the password): a LINE sign-in whose
        // address matches an account answers account_not_linked instead of merging the two.
        disableImplicitLinking: true,
        // What LINE shares is never a verified address, so the library's link needs LINE trusted,
        // and the LINE address may differ from the account's.
        trustedProviders: [LINE_PROVIDER_ID],
        allowDifferentEmails: true,
      },
    },
    // On in every mode, stored in the database so the limit holds across instances.
    rateLimit: {
      enabled: true,
      storage: "database",
      window: 60,
      max: 200,
      customRules: {
        "/sign-in/email": { window: 60, max: rateLimitMax },
        "/sign-up/email": { window: 60, max: rateLimitMax },
        "/request-password-reset": { window: 60, max: rateLimitMax },
        "/reset-password": { window: 60, max: rateLimitMax },
        "/change-email": { window: 60, max: rateLimitMax },
        "/change-password": { window: 60, max: rateLimitMax },
        // LINEでログイン: without its own rule the library's default for /sign-in/* (3 per 10 s per
        // address) would refuse players sharing a carrier's address, and the operator's setting.
        "/sign-in/social": { window: 60, max: rateLimitMax },
        "/link-social": { window: 60, max: rateLimitMax },
      },
    },
    advanced: {
      useSecureCookies: secure,
      cookiePrefix: "torepoke",
      defaultCookieAttributes: { httpOnly: true, sameSite: "lax", secure, path: "/" },
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
    },
    hooks: {
      // Our own rules on top of Better Auth's: the display name is shown to other users, and
      // control characters or overlong values are refused before anything is written.
      before: createAuthMiddleware(async (ctx) => {
        // The hook runs before Better Auth's own origin check and before it reads a callback.
        const query = safeCallbacks(ctx.query);
        const safeBody = safeCallbacks(ctx.body);
        if ((await accountBeforeHook(db, ctx, ctx.headers?.get(CLIENT_IP_HEADER) ?? null)) === "answered-ok") return ctx.json({ status: true });
        if (ctx.path === "/verify-email" && (await isStaleAddressChange(db, query?.token))) {
          const callback = typeof query?.callbackURL === "string" ? query.callbackURL : "/";
          throw ctx.redirect(`${callback}${callback.includes("?") ? "&" : "?"}error=TOKEN_EXPIRED`);
        }
        const callbacks = query !== ctx.query || safeBody !== ctx.body ? { context: { query, body: safeBody } } : undefined;
        if (ctx.path !== "/sign-up/email" && ctx.path !== "/sign-in/email") return callbacks;
        const body = (safeBody ?? {}) as Record<string, unknown>;
        const headers = ctx.headers;
        const email = body.email;
        if (typeof email !== "string" || email.length > EMAIL_MAX) {
          throw refuse(headers, new UserError(typeof email === "string" ? "email_too_long" : "email_invalid"));
        }
        if (hasControlCharacters(email)) throw refuse(headers, new UserError("email_invalid"));
        const password = body.password;
        if (typeof password !== "string" || password.length < PASSWORD_MIN || password.length > PASSWORD_MAX) {
          if (ctx.path === "/sign-in/email") {
            // Never hint at which half was wrong.
            throw refuse(headers, new UserError("invalid_credentials"));
          }
          throw refuse(headers, new UserError("password_length", { min: PASSWORD_MIN, max: PASSWORD_MAX }));
        }
        if (ctx.path === "/sign-up/email") {
          if (isCommonPassword(password)) throw refuse(headers, new UserError("password_common"));
          const checked = checkDisplayName(typeof body.name === "string" ? body.name : "");
          if (!checked.ok) {
            const code = {
              required: "display_name_required",
              tooLong: "display_name_too_long",
              control: "display_name_control",
              markup: "display_name_markup",
              reserved: "display_name_reserved",
            } as const;
            throw refuse(headers, new UserError(code[checked.problem], { max: DISPLAY_NAME_MAX }));
          }
          for (const field of Object.keys(body)) {
            if (!["email", "password", "name", "rememberMe", "callbackURL"].includes(field)) {
              throw refuse(headers, new UserError("invalid_request"));
            }
          }
          return { context: { ...ctx, query, body: { ...body, name: checked.value, email: email.trim() } } };
        }
        return callbacks;
      }),
      // Failed sign-ins per account (features/users/sign-in-guard.server.ts).
      after: createAuthMiddleware(async (ctx) => {
        await accountAfterHook(db, ctx, ctx.headers?.get(CLIENT_IP_HEADER) ?? null);
      }),
    },
    databaseHooks: {
      // LINE's tokens are of no use to us after sign-in (we call no LINE API): none is kept, so the
      // account row holds LINE's user ID and nothing a leak could use against the player's LINE.
      account: {
        create: { before: async (account) => ({ data: withoutProviderTokens(account) }) },
        update: { before: async (account) => ({ data: withoutProviderTokens(account) }) },
      },
      user: {
        update: {
          // A change of address is written when the link mailed to the new address is opened, which
          // proves that address: it is verified. Better Auth 1.7.25 carries the old address's flag
          // over instead, which would leave a player who changed an unverified address unmailable.
          before: async (user, ctx) => {
            if (ctx?.path === "/verify-email" && typeof user.email === "string") return { data: { ...user, emailVerified: true } };
            return { data: user };
          },
        },
        create: {
          // Every account gets its Torepoke profile at once (display name from sign-up).
          after: async (user) => {
            await ensureProfile(db, user.id, user.name);
          },
        },
      },
      session: {
        create: {
          // A suspended account cannot sign in again (report handling sets suspended_at).
          before: async (session, ctx) => {
            const [profile] = await db
              .select({ suspendedAt: profiles.suspendedAt })
              .from(profiles)
              .where(eq(profiles.userId, session.userId))
              .limit(1);
            if (profile?.suspendedAt) {
              throw refuse(ctx?.headers, new UserError("suspended"));
            }
          },
        },
        // Sign-out, and the sessions a password change or reset ends: their live sockets close too.
        delete: {
          after: async (session) => {
            noteSessionsEnded([session.id]);
          },
        },
      },
    },
    telemetry: { enabled: false },
    // Better Auth's own lines join the JSON log stream (LOG_LEVEL applies) instead of coloured text.
    logger: {
      level: "warn",
      log: (level, message, ...args) => log[level](`auth: ${message}`, detailsOf(args)),
    },
    // A refused request (wrong password, taken e-mail, rate limit) is routine: info, with its
    // code; only a failure of ours (5xx, anything unexpected) is an error. Without this hook
    // Better Auth prints every refusal through its default, coloured console logger.
    onAPIError: {
      // Where a provider's callback lands when it cannot even tell whose sign-in it is (a forged or
      // used-up state): the log-in page, which says it did not work. The library's own page is English.
      errorURL: `${env.siteUrl}/login`,
      onError: (error) => {
        if (isAPIError(error) && error.statusCode < 500) {
          log.info("auth: request refused", { status: error.statusCode, code: (error.body as { code?: unknown } | undefined)?.code });
        } else {
          log.error("auth: request failed", detailsOf([error]));
        }
      },
    },
  });
}

export type Auth = ReturnType<typeof createAuth>;

const cache = new WeakMap<Db, WeakMap<Env, Auth>>();

/** One Better Auth instance per database and configuration (the app has exactly one of each). */
export function getAuth(db: Db, env: Env): Auth {
  let byEnv = cache.get(db);
  if (!byEnv) {
    byEnv = new WeakMap();
    cache.set(db, byEnv);
  }
  let auth = byEnv.get(env);
  if (!auth) {
    auth = createAuth(db, env);
    byEnv.set(env, auth);
  }
  return auth;
}

/**
 * The Web handler mounted at /api/auth (server/http.ts wraps it with toNodeHandler): only the
 * PUBLIC_AUTH_ENDPOINTS; any other path answers our 404 before the library sees it.
 */
export function publicAuthRequestHandler(auth: Auth, env: Pick<Env, "line">): (request: Request) => Promise<Response> {
  const handler = authRequestHandler(auth);
  const open = publicAuthEndpoints(env);
  return async (request) => {
    const path = new URL(request.url).pathname.slice(AUTH_BASE_PATH.length);
    if (open.has(`${request.method} ${path}`)) return handler(request);
    return errorResponse(new HttpError("not_found"), localeOf(request.headers));
  };
}

/**
 * The library's handler with our answers: Better Auth's own 429 body is English; ours says it in
 * the visitor's language. Page actions reach every enabled endpoint through it (callAuthEndpoint).
 */
export function authRequestHandler(auth: Auth): (request: Request) => Promise<Response> {
  return async (request) => {
    const response = await auth.handler(request);
    if (response.status >= 400 && response.status !== 429) return localiseError(request, response);
    if (response.status !== 429) return response;
    // Our own 429 (the per-account back-off) already speaks the visitor's language.
    if (!response.headers.has("x-retry-after")) return response;
    const headers = new Headers(response.headers);
    headers.set("content-type", "application/json");
    headers.delete("content-length");
    const retryAfter = headers.get("x-retry-after");
    if (retryAfter) headers.set("retry-after", retryAfter);
    const { code, message } = describeAppError(new UserError("rate_limited"), localeOf(request.headers));
    return new Response(JSON.stringify({ code, message, error: message }), { status: 429, headers });
  };
}


async function localiseError(request: Request, response: Response): Promise<Response> {
  if (!response.headers.get("content-type")?.includes("application/json")) return response;
  const body = (await response.clone().json().catch(() => null)) as { code?: string; message?: string } | null;
  const code = body?.code ? FROM_BETTER_AUTH[body.code] : undefined;
  if (!body || !code) return response;
  const message = new UserError(code, { min: PASSWORD_MIN, max: PASSWORD_MAX }).text(localeOf(request.headers));
  const headers = new Headers(response.headers);
  headers.delete("content-length");
  return new Response(JSON.stringify({ ...body, code, message, error: message }), { status: response.status, headers });
}

/** A separate instance with other limits, for tests of the rate limiter. */
export function createAuthForTest(db: Db, env: Env, options: AuthOptions): Auth {
  return createAuth(db, env, options);
}

/** Creates the profile row if it is missing; safe to call repeatedly. */
export async function ensureProfile(db: Db, userId: string, displayName: string): Promise<void> {
  const checked = checkDisplayName(displayName);
  await db
    .insert(profiles)
    .values({ userId, displayName: checked.ok ? checked.value : "トレーナー" })
    .onConflictDoNothing({ target: profiles.userId });
}

/** The endpoints page actions call through callAuthEndpoint (POST), after their own checks. */
export const PAGE_AUTH_PATHS = ["/sign-in/email", "/sign-up/email", "/sign-out", "/request-password-reset", "/reset-password", "/change-email", "/change-password", ...LINE_PAGE_AUTH_PATHS] as const;
export type PageAuthPath = (typeof PAGE_AUTH_PATHS)[number];

/**
 * Calls a Better Auth endpoint on behalf of a page action, through the same handler as
 * /api/auth (so rate limits, hooks and localised errors apply). The page request already passed
 * the site-wide CSRF check in server/http.ts, hence the site's own Origin here.
 */
export async function callAuthEndpoint(
  db: Db,
  env: Env,
  request: Request,
  path: PageAuthPath,
  body: Record<string, unknown> = {},
): Promise<Response> {
  const headers = new Headers({ "content-type": "application/json", origin: env.siteUrl });
  for (const name of ["cookie", "user-agent", CLIENT_IP_HEADER]) {
    const value = request.headers.get(name);
    if (value) headers.set(name, value);
  }
  const handler = authRequestHandler(getAuth(db, env));
  return handler(new Request(`${env.siteUrl}${AUTH_BASE_PATH}${path}`, { method: "POST", headers, body: JSON.stringify(body) }));
}

/** The Set-Cookie headers of an auth response, to pass on with a redirect. */
export function cookiesOf(response: Response): Headers {
  const headers = new Headers();
  for (const cookie of response.headers.getSetCookie()) headers.append("set-cookie", cookie);
  return headers;
}
