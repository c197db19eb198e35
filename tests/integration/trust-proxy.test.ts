import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { networkInterfaces, tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { signInFailures } from "#app/db/schema/delivery.ts";
import { rateLimits } from "#app/db/schema/users.ts";
import { signInKey } from "#app/features/users/sign-in-guard.server.ts";
import { loadEnv } from "#app/lib/env.server.ts";
import { createLogger } from "#app/lib/logger.server.ts";
import { startHttpApp } from "#tests/support/http-app.ts";
import { createTestDatabase, type TestDatabase } from "#tests/support/test-db.ts";

// The client address every per-IP limit and the request log read is Express's req.ip, decided by
// TRUST_PROXY. The app listens on this machine's own non-loopback address, so the test's requests
// come from a peer that is not loopback: a proxy on another host, as an operator's balancer is.
const SITE = "http://torepoke.test";
const proxyAddress = Object.values(networkInterfaces())
  .flat()
  .find((a) => a && a.family === "IPv4" && !a.internal)?.address;
// Two players behind the one proxy (documentation addresses, RFC 5737).
const ALICE = "203.0.113.10";
const BOB = "203.0.113.20";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.close();
});
beforeEach(async () => {
  // Without a trusted proxy every request counts as the proxy's: each case starts from no counts.
  await database.db.delete(rateLimits);
  await database.db.delete(signInFailures);
});

type Line = { msg: string; path?: string; ip?: string };

async function withApp(settings: Record<string, string>, run: (app: { base: string; lines: Line[] }) => Promise<void>) {
  const lines: Line[] = [];
  const env = loadEnv({ DATA_DIR: mkdtempSync(path.join(tmpdir(), "torepoke-trust-proxy-")), BETTER_AUTH_SECRET: randomBytes(32).toString("base64url"), SITE_URL: SITE, LOG_LEVEL: "error", ...settings });
  const server = await startHttpApp({ env, database, routes: {}, host: proxyAddress, log: createLogger("info", (line) => void lines.push(JSON.parse(line))) });
  try {
    await run({ base: server.base, lines });
  } finally {
    await server.close();
  }
}

const uniqueEmail = () => `proxy-${randomBytes(5).toString("hex")}@example.com`;

/** A failed sign-in from the player the proxy names in X-Forwarded-For. */
async function signIn(base: string, forwardedFor: string, email = uniqueEmail()): Promise<number> {
  const res = await fetch(`${base}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { origin: SITE, "content-type": "application/json", "x-forwarded-for": forwardedFor },
    body: JSON.stringify({ email, password: "not-the-password-1" }),
  });
  await res.arrayBuffer();
  return res.status;
}

async function pageView(base: string, forwardedFor: string): Promise<number> {
  const res = await fetch(`${base}/api/event`, { method: "POST", headers: { origin: SITE, "content-type": "text/plain", "x-forwarded-for": forwardedFor }, body: '{"t":"pv","u":"/"}' });
  await res.arrayBuffer();
  return res.status;
}

describe.skipIf(!proxyAddress)("the client address behind a proxy (TRUST_PROXY; needs a non-loopback IPv4 address on this machine)", () => {
  const trusted = [
    ["TRUST_PROXY=1", { TRUST_PROXY: "1" }],
    ["TRUST_PROXY naming the proxy's address", { TRUST_PROXY: proxyAddress ?? "" }],
    ["TRUST_PROXY naming the proxy's subnet among others", { TRUST_PROXY: `loopback, ${proxyAddress}/24` }],
  ] as const;
  const untrusted = [
    ["TRUST_PROXY unset (loopback only)", {}],
    ["TRUST_PROXY naming another address", { TRUST_PROXY: "10.9.9.9, uniquelocal" }],
  ] as const;

  it.each(trusted)("%s: two players behind one proxy get a log-in limit each, and the log names each", async (_name, settings) => {
    await withApp({ ...settings, AUTH_RATE_LIMIT_MAX: "2" }, async ({ base, lines }) => {
      expect([await signIn(base, ALICE), await signIn(base, ALICE), await signIn(base, ALICE)]).toEqual([401, 401, 429]);
      // The proxy appends the address it saw to whatever the client sent: Bob claiming to be Alice is still Bob.
      expect(await signIn(base, `${ALICE}, ${BOB}`)).toBe(401);
      const ips = lines.filter((l) => l.msg === "request" && l.path === "/api/auth/sign-in/email").map((l) => l.ip);
      expect(ips).toEqual([ALICE, ALICE, ALICE, BOB]);
    });
  });

  it.each(untrusted)("%s: a forwarded address is not believed, so both players share the proxy's one limit", async (_name, settings) => {
    await withApp({ ...settings, AUTH_RATE_LIMIT_MAX: "2" }, async ({ base, lines }) => {
      expect([await signIn(base, ALICE), await signIn(base, ALICE), await signIn(base, ALICE)]).toEqual([401, 401, 429]);
      // Bob's own header (as a client's spoofed one would be) picks no bucket of its own.
      expect(await signIn(base, BOB)).toBe(429);
      const ips = lines.filter((l) => l.msg === "request" && l.path === "/api/auth/sign-in/email").map((l) => l.ip);
      expect(ips).toEqual([proxyAddress, proxyAddress, proxyAddress, proxyAddress]);
    });
  });

  it("TRUST_PROXY=1: the sign-in back-off holds the player who failed, not the other player behind the same proxy", async () => {
    await withApp({ TRUST_PROXY: "1", AUTH_RATE_LIMIT_MAX: "100" }, async ({ base }) => {
      const email = uniqueEmail();
      for (let i = 0; i < 5; i++) expect(await signIn(base, ALICE, email)).toBe(401);
      // The fifth failure started a wait for the address, from Alice's address only.
      expect(await signIn(base, ALICE, email)).toBe(429);
      expect(await signIn(base, BOB, email)).toBe(401);
      const [row] = await database.db.select({ failedIps: signInFailures.failedIps }).from(signInFailures).where(eq(signInFailures.emailKey, signInKey(email)));
      expect(row.failedIps.toSorted()).toEqual([ALICE, BOB]);
    });
  });

  it("TRUST_PROXY unset: the back-off holds everyone behind the proxy", async () => {
    await withApp({ AUTH_RATE_LIMIT_MAX: "100" }, async ({ base }) => {
      const email = uniqueEmail();
      for (let i = 0; i < 5; i++) expect(await signIn(base, ALICE, email)).toBe(401);
      expect(await signIn(base, BOB, email)).toBe(429);
      const [row] = await database.db.select({ failedIps: signInFailures.failedIps }).from(signInFailures).where(eq(signInFailures.emailKey, signInKey(email)));
      expect(row.failedIps).toEqual([proxyAddress]);
    });
  });

  it("analytics counts hits per player behind a trusted proxy, and per proxy otherwise", async () => {
    await withApp({ TRUST_PROXY: "1", ANALYTICS_RATE_LIMIT: "1" }, async ({ base }) => {
      expect([await pageView(base, ALICE), await pageView(base, ALICE), await pageView(base, BOB)]).toEqual([204, 429, 204]);
    });
    await withApp({ ANALYTICS_RATE_LIMIT: "1" }, async ({ base }) => {
      expect([await pageView(base, ALICE), await pageView(base, ALICE), await pageView(base, BOB)]).toEqual([204, 429, 429]);
    });
  });
});
