import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { APIError, createAuthMiddleware } from "better-auth/api";
import { eq } from "drizzle-orm";
import type { Db } from "../db/client.server";
import * as schema from "../db/schema/index";
import { profiles } from "../db/schema/users";
import { isCommonPassword } from "../features/users/common-passwords.server";
import { checkDisplayName, DISPLAY_NAME_MAX, EMAIL_MAX, hasControlCharacters, PASSWORD_MAX, PASSWORD_MIN } from "../features/users/display-name";
import { usersMessages } from "../features/users/messages";
import type { Env } from "./env.server";
import { localeFromRequest, translate, type Locale } from "./i18n";

/**
 * Better Auth sees the client address only through this header, which server/http.ts sets from
 * Express's `req.ip` (trust proxy: loopback) and overwrites on every request, so a client cannot
 * pick its own rate-limit bucket by sending X-Forwarded-For.
 */
export const CLIENT_IP_HEADER = "x-torepoke-client-ip";
export const AUTH_BASE_PATH = "/api/auth";
/** Better Auth's session cookie with our prefix (`__Secure-` in front under https). */
export const SESSION_COOKIE = "torepoke.session_token";

// Endpoints Torepoke does not use (no e-mail delivery, no social log-in; profile edits go through
// our own validated action): disabled so they are not an unreviewed surface.
const DISABLED_PATHS = [
  "/update-user",
  "/change-email",
  "/delete-user",
  "/delete-user/callback",
  "/request-password-reset",
  "/reset-password",
  "/send-verification-email",
  "/verify-email",
  "/sign-in/social",
  "/link-social",
  "/unlink-account",
  "/refresh-token",
  "/get-access-token",
  "/account-info",
];

const localeOf = (headers: Headers | undefined): Locale => (headers ? localeFromRequest({ headers } as Request) : "ja");

function badRequest(headers: Headers | undefined, key: keyof typeof usersMessages.ja, code: string, params?: Record<string, number>) {
  return new APIError("BAD_REQUEST", { message: translate(usersMessages, localeOf(headers), key, params), code });
}

export type AuthOptions = { rateLimitMax?: number };

function createAuth(db: Db, env: Env, options: AuthOptions = {}) {
  const secure = env.siteUrl.startsWith("https:");
  const rateLimitMax = options.rateLimitMax ?? env.authRateLimitMax;
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
    },
    emailAndPassword: {
      enabled: true,
      minPasswordLength: PASSWORD_MIN,
      maxPasswordLength: PASSWORD_MAX,
      autoSignIn: true,
    },
    session: {
      expiresIn: 60 * 60 * 24 * 30,
      updateAge: 60 * 60 * 24,
    },
    disabledPaths: DISABLED_PATHS,
    // On in every mode, stored in the database so the limit holds across instances.
    rateLimit: {
      enabled: true,
      storage: "database",
      window: 60,
      max: 200,
      customRules: {
        "/sign-in/email": { window: 60, max: rateLimitMax },
        "/sign-up/email": { window: 60, max: rateLimitMax },
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
        if (ctx.path !== "/sign-up/email" && ctx.path !== "/sign-in/email") return;
        const body = (ctx.body ?? {}) as Record<string, unknown>;
        const headers = ctx.headers;
        const email = body.email;
        if (typeof email !== "string" || email.length > EMAIL_MAX) {
          throw badRequest(headers, typeof email === "string" ? "errorEmailTooLong" : "errorEmailInvalid", "INVALID_EMAIL");
        }
        if (hasControlCharacters(email)) throw badRequest(headers, "errorEmailInvalid", "INVALID_EMAIL");
        const password = body.password;
        if (typeof password !== "string" || password.length < PASSWORD_MIN || password.length > PASSWORD_MAX) {
          if (ctx.path === "/sign-in/email") {
            // Never hint at which half was wrong.
            throw new APIError("UNAUTHORIZED", {
              message: translate(usersMessages, localeOf(headers), "errorCredentials"),
              code: "INVALID_EMAIL_OR_PASSWORD",
            });
          }
          throw badRequest(headers, "errorPasswordLength", "INVALID_PASSWORD_LENGTH", { min: PASSWORD_MIN, max: PASSWORD_MAX });
        }
        if (ctx.path === "/sign-up/email") {
          if (isCommonPassword(password)) throw badRequest(headers, "errorPasswordCommon", "PASSWORD_TOO_COMMON");
          const checked = checkDisplayName(typeof body.name === "string" ? body.name : "");
          if (!checked.ok) {
            const key = {
              required: "errorDisplayNameRequired",
              tooLong: "errorDisplayNameTooLong",
              control: "errorDisplayNameControl",
              markup: "errorDisplayNameMarkup",
            } as const;
            throw badRequest(headers, key[checked.problem], "INVALID_DISPLAY_NAME", { max: DISPLAY_NAME_MAX });
          }
          for (const field of Object.keys(body)) {
            if (!["email", "password", "name", "rememberMe", "callbackURL"].includes(field)) {
              throw badRequest(headers, "errorInvalidRequest", "UNKNOWN_FIELD");
            }
          }
          return { context: { ...ctx, body: { ...body, name: checked.value, email: email.trim() } } };
        }
      }),
    },
    databaseHooks: {
      user: {
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
              throw new APIError("FORBIDDEN", {
                message: translate(usersMessages, localeOf(ctx?.headers), "errorSuspended"),
                code: "ACCOUNT_SUSPENDED",
              });
            }
          },
        },
      },
    },
    telemetry: { enabled: false },
    // Better Auth's own lines join our JSON log stream instead of coloured text.
    logger: {
      level: "error",
      log: (level, message) => {
        process.stderr.write(`${JSON.stringify({ level, time: new Date().toISOString(), msg: `auth: ${message}` })}\n`);
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
 * The Web handler mounted at /api/auth (server/http.ts wraps it with toNodeHandler). Better
 * Auth's own 429 body is English; ours says it in the visitor's language.
 */
export function authRequestHandler(auth: Auth): (request: Request) => Promise<Response> {
  return async (request) => {
    const response = await auth.handler(request);
    if (response.status >= 400 && response.status !== 429) return localiseError(request, response);
    if (response.status !== 429) return response;
    const headers = new Headers(response.headers);
    headers.set("content-type", "application/json");
    headers.delete("content-length");
    const retryAfter = headers.get("x-retry-after");
    if (retryAfter) headers.set("retry-after", retryAfter);
    const message = translate(usersMessages, localeOf(request.headers), "errorRateLimited");
    return new Response(JSON.stringify({ code: "RATE_LIMITED", message, error: message }), { status: 429, headers });
  };
}

// Better Auth's error codes → our catalogue, so the API speaks the visitor's language too.
const ERROR_MESSAGES: Record<string, keyof typeof usersMessages.ja> = {
  INVALID_EMAIL_OR_PASSWORD: "errorCredentials",
  INVALID_PASSWORD: "errorCredentials",
  USER_ALREADY_EXISTS: "errorEmailTaken",
  USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL: "errorEmailTaken",
  INVALID_EMAIL: "errorEmailInvalid",
  PASSWORD_TOO_SHORT: "errorPasswordLength",
  PASSWORD_TOO_LONG: "errorPasswordLength",
  VALIDATION_ERROR: "errorInvalidRequest",
  BAD_REQUEST: "errorInvalidRequest",
  INVALID_ORIGIN: "errorCsrf",
  MISSING_OR_NULL_ORIGIN: "errorCsrf",
};

async function localiseError(request: Request, response: Response): Promise<Response> {
  if (!response.headers.get("content-type")?.includes("application/json")) return response;
  const body = (await response.clone().json().catch(() => null)) as { code?: string; message?: string } | null;
  const key = body?.code ? ERROR_MESSAGES[body.code] : undefined;
  if (!body || !key) return response;
  const message = translate(usersMessages, localeOf(request.headers), key, { min: PASSWORD_MIN, max: PASSWORD_MAX });
  const headers = new Headers(response.headers);
  headers.delete("content-length");
  return new Response(JSON.stringify({ ...body, message, error: message }), { status: response.status, headers });
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

/**
 * Calls a Better Auth endpoint on behalf of a page action, through the same handler as
 * /api/auth (so rate limits, hooks and localised errors apply). The page request already passed
 * the site-wide CSRF check in server/http.ts, hence the site's own Origin here.
 */
export async function callAuthEndpoint(
  db: Db,
  env: Env,
  request: Request,
  path: "/sign-in/email" | "/sign-up/email" | "/sign-out",
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
