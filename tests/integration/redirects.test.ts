import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { AppLoadContext } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLIENT_IP_HEADER, getAuth } from "#app/features/users/auth.server.ts";
import { OFF_SITE_REDIRECTS } from "#app/features/users/safe-redirect.ts";
import { loadEnv, type Env } from "#app/lib/env.server.ts";
import { action as languageAction } from "#app/routes/language.tsx";
import { action as loginAction, loader as loginLoader } from "#app/routes/login.tsx";
import { loader as signupLoader } from "#app/routes/signup.tsx";
import { createSessionCookie } from "#tests/support/chat-factories.ts";
import { createUser } from "#tests/support/factories.ts";
import { createTestDatabase, type TestDatabase } from "#tests/support/test-db.ts";

// Every way in that sends the browser on after it answers (docs/product-rules.md §2 login/sign-up, the language
// switch) must answer a Location on this site, whatever redirectTo says.
const SITE = "http://127.0.0.1:3000";
const SECRET = randomBytes(32).toString("base64url");
let database: TestDatabase;
let env: Env;
let context: AppLoadContext;
let cookie: string;
const email = `redirect-${Date.now()}@example.com`;
const password = "kouKan-pass-2026";

beforeAll(async () => {
  database = await createTestDatabase();
  env = loadEnv({ DATA_DIR: mkdtempSync(path.join(tmpdir(), "torepoke-redirects-")), BETTER_AUTH_SECRET: SECRET, SITE_URL: SITE, LOG_LEVEL: "silent", AUTH_RATE_LIMIT_MAX: "10000" });
  context = { db: database.db, env, cspNonce: "test" } as AppLoadContext;
  cookie = await createSessionCookie(database.db, (await createUser(database.db)).id, SECRET);
  const signUp = await getAuth(database.db, env).handler(
    new Request(`${SITE}/api/auth/sign-up/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: SITE, [CLIENT_IP_HEADER]: "10.9.0.1" },
      body: JSON.stringify({ email, password, name: "リダイレクト" }),
    }),
  );
  expect(signUp.status).toBe(200);
});
afterAll(async () => {
  await database?.close();
});

async function locationOf(run: () => Promise<unknown>): Promise<string> {
  const answer = await run().catch((thrown: unknown) => thrown);
  if (!(answer instanceof Response)) throw new Error(`expected a redirect, got ${JSON.stringify(answer)}`);
  expect([301, 302, 303, 307, 308]).toContain(answer.status);
  return answer.headers.get("location") ?? "";
}

function expectSameOrigin(location: string) {
  expect(location.startsWith("/")).toBe(true);
  expect(location.startsWith("//") || location.startsWith("/\\")).toBe(false);
  expect(new URL(location, SITE).origin).toBe(SITE);
}

const args = (request: Request) => ({ request, params: {}, context }) as never;
const get = (url: string) => new Request(`${SITE}${url}`, { headers: { cookie } });
const post = (url: string, fields: Record<string, string>, withCookie = true) =>
  new Request(`${SITE}${url}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: SITE, ...(withCookie ? { cookie } : {}), [CLIENT_IP_HEADER]: "10.9.0.2" },
    body: new URLSearchParams(fields).toString(),
  });

describe("redirectTo never leaves the site", () => {
  it.each(OFF_SITE_REDIRECTS)("GET /login and /signup signed in, POST /language: %j", async (to) => {
    const query = `?redirectTo=${encodeURIComponent(to)}`;
    const fromLogin = await locationOf(() => loginLoader(args(get(`/login${query}`))));
    expect(fromLogin).toBe("/");
    const fromSignup = await locationOf(() => signupLoader(args(get(`/signup${query}`))));
    expect(fromSignup).toBe("/profile");
    const fromLanguage = await locationOf(() => languageAction(args(post("/language", { lang: "en", redirectTo: to }))));
    expect(fromLanguage).toBe("/");
    for (const location of [fromLogin, fromSignup, fromLanguage]) expectSameOrigin(location);
  });

  it("POST /login with good credentials goes to the site's top page, not the other origin", async () => {
    for (const to of ["/.//evil.example/phish", "/..//evil.example", "//evil.example"]) {
      const location = await locationOf(() => loginAction(args(post("/login", { email, password, redirectTo: to }, false))));
      expect(location).toBe("/");
    }
  });

  it("still follows a same-site redirectTo", async () => {
    expect(await locationOf(() => loginLoader(args(get(`/login?redirectTo=${encodeURIComponent("/trades?page=2")}`))))).toBe("/trades?page=2");
    expect(await locationOf(() => languageAction(args(post("/language", { lang: "ja", redirectTo: "/articles/../decks" }))))).toBe("/decks");
  });
});
