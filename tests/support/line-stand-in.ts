import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import Provider from "oidc-provider";

/** Who "signs in to LINE" next: LINE's user ID, display name and (with the e-mail permission) address. */
export type LineUser = { sub: string; name: string; email?: string };

export const LINE_TEST_CLIENT_ID = "1650000001";
export const LINE_TEST_CLIENT_SECRET = "0123456789abcdef0123456789abcdef";

/**
 * A real OpenID Connect server (oidc-provider) standing in for LINE Login v2.1: LINE's paths
 * (/oauth2/v2.1/authorize, /oauth2/v2.1/token), ID tokens signed with HS256 and the channel
 * secret, the profile and e-mail claims in the ID token as LINE puts them. Its sign-in screen
 * is skipped: the player named by `signInAs` is signed in and agrees at once, as after a tap in
 * the LINE app.
 */
export async function startLineStandIn(siteUrl: string): Promise<{ origin: string; signInAs(user: LineUser): void; close(): Promise<void> }> {
  let current: LineUser | undefined;
  const users = new Map<string, LineUser>();
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const provider = new Provider(origin, {
    clients: [
      {
        client_id: LINE_TEST_CLIENT_ID,
        client_secret: LINE_TEST_CLIENT_SECRET,
        redirect_uris: [`${siteUrl}/api/auth/callback/line`],
        grant_types: ["authorization_code"],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_post",
        id_token_signed_response_alg: "HS256",
      },
    ],
    routes: { authorization: "/oauth2/v2.1/authorize", token: "/oauth2/v2.1/token", userinfo: "/oauth2/v2.1/userinfo" },
    scopes: ["openid", "profile", "email"],
    claims: { openid: ["sub"], profile: ["name"], email: ["email"] },
    enabledJWA: { idTokenSigningAlgValues: ["HS256", "RS256"] },
    // LINE puts the claims in the ID token itself.
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    cookies: { keys: ["line-stand-in-cookie-key"] },
    ttl: { AccessToken: 600, AuthorizationCode: 60, IdToken: 600, Interaction: 600, Grant: 600, Session: 600 },
    async findAccount(_ctx, sub) {
      const user = users.get(sub);
      if (!user) return undefined;
      return { accountId: sub, claims: async () => ({ sub, name: user.name, ...(user.email ? { email: user.email } : {}) }) };
    },
  });
  const callback = provider.callback();
  server.on("request", (req, res) => {
    const match = /^\/interaction\/([^/?]+)/.exec(req.url ?? "");
    if (!match) {
      callback(req, res);
      return;
    }
    void (async () => {
      try {
        const details = await provider.interactionDetails(req, res);
        if (!current) throw new Error("signInAs was not called");
        users.set(current.sub, current);
        const grant = new provider.Grant({ accountId: current.sub, clientId: LINE_TEST_CLIENT_ID });
        grant.addOIDCScope("openid profile email");
        const grantId = await grant.save();
        await provider.interactionFinished(req, res, { login: { accountId: current.sub }, consent: { grantId } }, { mergeWithLastSubmission: false });
        void details;
      } catch (error) {
        res.statusCode = 500;
        res.end(String(error));
      }
    })();
  });
  return {
    origin,
    signInAs(user) {
      current = user;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A browser's cookie jar for one host, enough to follow a redirect chain by hand. */
export class CookieJar {
  private cookies = new Map<string, string>();
  take(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const at = pair.indexOf("=");
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1);
      if (/max-age=0|expires=Thu, 01 Jan 1970/i.test(line) || value === "") this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }
  get(name: string): string | undefined {
    return this.cookies.get(name);
  }
}

/**
 * Follows the stand-in's redirects (its own cookies kept) from an authorization URL until it
 * sends the browser back to the site: returns that URL (the callback with code and state).
 */
export async function throughLine(authorizationUrl: string, lineOrigin: string): Promise<URL> {
  const jar = new CookieJar();
  let url = new URL(authorizationUrl);
  for (let hop = 0; hop < 10; hop++) {
    if (url.origin !== lineOrigin) return url;
    const response = await fetch(url, { redirect: "manual", headers: { cookie: jar.header() } });
    jar.take(response);
    const location = response.headers.get("location");
    if (!location) throw new Error(`the LINE stand-in answered ${response.status} without a redirect: ${await response.text()}`);
    url = new URL(location, url);
  }
  throw new Error("too many redirects at the LINE stand-in");
}
