import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import type { BetterAuthPlugin } from "better-auth";
import type { LineSettings } from "#app/lib/env.server.ts";

/**
 * LINE Login (OpenID Connect, v2.1) as one of the library's social providers: a plugin that adds
 * it to the providers Better Auth's own `/sign-in/social`, `/callback/:id`, `/link-social` and
 * `/unlink-account` serve (the way its generic OAuth plugin adds its providers). Written here
 * rather than taken from the library's LINE provider because that one trusts the ID token
 * without checking its signature or nonce, and its endpoints cannot be pointed at a test stand-in.
 * docs/decisions/037-line-login.md.
 */
export const LINE_PROVIDER_ID = "line";

/** An account without an address of its own gets this one: never mailed (reserved TLD, RFC 2606), never shown. */
export const NO_ADDRESS_DOMAIN = "no-address.invalid";
export const isPlaceholderAddress = (email: string): boolean => email.toLowerCase().endsWith(`@${NO_ADDRESS_DOMAIN}`);
const placeholderAddress = (sub: string) => `line-${sub.toLowerCase()}@${NO_ADDRESS_DOMAIN}`;

export type LineClaims = { sub: string; name?: string; email?: string; picture?: string; nonce?: string; aud?: unknown; iss?: unknown; exp?: unknown };

/**
 * The nonce of a sign-in is bound to its PKCE verifier, which the library keeps with the state
 * (one per sign-in, single use, 10 minutes) and hands to both ends of the flow: an ID token from
 * another sign-in, or one replayed, carries another nonce and is refused.
 */
export function lineNonce(secret: string, codeVerifier: string): string {
  return createHmac("sha256", secret).update(`line-nonce:${codeVerifier}`).digest("base64url");
}

/**
 * LINE signs the ID tokens of web login with HS256 and the channel secret (LINE's "Get profile
 * information from ID tokens"). Checked: the signature, the issuer, the audience (our channel),
 * the expiry and, when given, the nonce. Returns the claims, or null.
 */
export function verifyLineIdToken(token: string, line: LineSettings, expectedNonce?: string): LineClaims | null {
  const parts = token.split(".");
  if (parts.length !== 3) return null;
  const [headerPart, payloadPart, signaturePart] = parts;
  let header: { alg?: unknown };
  let claims: LineClaims;
  try {
    header = JSON.parse(Buffer.from(headerPart, "base64url").toString("utf8"));
    claims = JSON.parse(Buffer.from(payloadPart, "base64url").toString("utf8"));
  } catch {
    return null;
  }
  if (header.alg !== "HS256") return null;
  const expected = createHmac("sha256", line.clientSecret).update(`${headerPart}.${payloadPart}`).digest();
  const given = Buffer.from(signaturePart, "base64url");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  if (claims.iss !== line.issuer) return null;
  const audience = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
  if (!audience.includes(line.clientId)) return null;
  if (typeof claims.exp !== "number" || claims.exp * 1000 < Date.now()) return null;
  if (typeof claims.sub !== "string" || !claims.sub) return null;
  if (expectedNonce !== undefined && claims.nonce !== expectedNonce) return null;
  return claims;
}

type Tokens = { accessToken?: string; refreshToken?: string; idToken?: string; accessTokenExpiresAt?: Date; scopes?: string[]; tokenType?: string };

async function exchangeCode(line: LineSettings, code: string, redirectURI: string, codeVerifier: string | undefined): Promise<Tokens> {
  const body = new URLSearchParams({ grant_type: "authorization_code", code, redirect_uri: redirectURI, client_id: line.clientId, client_secret: line.clientSecret });
  if (codeVerifier) body.set("code_verifier", codeVerifier);
  const response = await fetch(line.tokenUrl, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" }, body, signal: AbortSignal.timeout(10_000) });
  if (!response.ok) throw new Error(`LINE token endpoint answered ${response.status}`);
  const data = (await response.json()) as { access_token?: string; refresh_token?: string; id_token?: string; expires_in?: number; scope?: string; token_type?: string };
  return {
    accessToken: data.access_token,
    refreshToken: data.refresh_token,
    idToken: data.id_token,
    tokenType: data.token_type,
    accessTokenExpiresAt: typeof data.expires_in === "number" ? new Date(Date.now() + data.expires_in * 1000) : undefined,
    scopes: data.scope ? data.scope.split(" ") : [],
  };
}

/** The provider as the library's social-provider interface has it. */
function lineProvider(line: LineSettings, secret: string) {
  return {
    id: LINE_PROVIDER_ID,
    name: "LINE",
    callbackPath: `/callback/${LINE_PROVIDER_ID}`,
    // The account row keys on LINE's user ID (the ID token's sub), which is stable per channel.
    accountSubject: ({ profile }: { profile: Record<string, unknown> }) => String(profile.sub ?? ""),
    async createAuthorizationURL(data: { state: string; codeVerifier: string; redirectURI: string; scopes?: string[] }) {
      const url = new URL(line.authorizationUrl);
      url.searchParams.set("response_type", "code");
      url.searchParams.set("client_id", line.clientId);
      url.searchParams.set("redirect_uri", data.redirectURI);
      url.searchParams.set("state", data.state);
      // The e-mail address is shared only when the channel has LINE's permission and the player agrees.
      url.searchParams.set("scope", ["openid", "profile", "email", ...(data.scopes ?? [])].join(" "));
      url.searchParams.set("nonce", lineNonce(secret, data.codeVerifier));
      url.searchParams.set("code_challenge", createHash("sha256").update(data.codeVerifier).digest("base64url"));
      url.searchParams.set("code_challenge_method", "S256");
      return url;
    },
    async validateAuthorizationCode(data: { code: string; codeVerifier?: string; redirectURI: string }) {
      const tokens = await exchangeCode(line, data.code, data.redirectURI, data.codeVerifier);
      // The callback answers invalid_code for a token that fails here: forged, from another
      // channel, expired, or from another sign-in than the state's (the nonce).
      if (!tokens.idToken || !data.codeVerifier || !verifyLineIdToken(tokens.idToken, line, lineNonce(secret, data.codeVerifier))) {
        throw new Error("LINE ID token refused");
      }
      return tokens;
    },
    async getUserInfo(tokens: Tokens) {
      const claims = tokens.idToken ? verifyLineIdToken(tokens.idToken, line) : null;
      if (!claims) return null;
      const email = typeof claims.email === "string" && claims.email ? claims.email.toLowerCase() : undefined;
      return {
        user: {
          id: claims.sub,
          // The display name is checked and, if need be, replaced when the profile row is made (ensureProfile).
          name: typeof claims.name === "string" ? claims.name : "",
          email: email ?? placeholderAddress(claims.sub),
          // Never trusted as verified: a matching address asks the player to link instead (no silent merge).
          emailVerified: false,
          image: undefined,
        },
        data: { sub: claims.sub, name: claims.name, email },
      };
    },
    async refreshAccessToken(): Promise<Tokens> {
      // We keep no use for LINE's access token past sign-in.
      throw new Error("not used");
    },
    options: { clientId: line.clientId, clientSecret: line.clientSecret },
  };
}

/** The plugin that puts LINE among the library's providers when LINE_CLIENT_ID/SECRET are set. */
export function lineLoginPlugin(line: LineSettings, secret: string): BetterAuthPlugin {
  const provider = lineProvider(line, secret);
  return {
    id: "torepoke-line-login",
    init: (ctx) => ({ context: { socialProviders: [provider as unknown as (typeof ctx.socialProviders)[number], ...ctx.socialProviders.filter((p) => p.id !== LINE_PROVIDER_ID)] } }),
  };
}
