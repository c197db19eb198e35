import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { once } from "node:events";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedCatalogue } from "#app/features/cards/catalogue.server.ts";
import { OfferInputSchema } from "#app/features/trades/trades.schema.ts";
import { createOffer } from "#app/features/trades/offers.server.ts";
import type { AppContext } from "#app/lib/context.ts";
import { loadEnv } from "#app/lib/env.server.ts";
import { loader as cardSearchLoader } from "#app/routes/api.cards.search.ts";
import { loader as boardLoader } from "#app/routes/api.trades.ts";
import { loader as matchesLoader } from "#app/routes/api.trades.matches.ts";
import { JSON_ENDPOINTS, jsonApi } from "#server/json-api.ts";
import { createSessionCookie } from "#tests/support/chat-factories.ts";
import { catalogueCards, createUser } from "#tests/support/factories.ts";
import { createTestDatabase, type TestDatabase } from "#tests/support/test-db.ts";

// Express answers the hottest GET APIs itself (server/json-api.ts); each must answer exactly what
// its route module's loader answers through React Router.
const SITE = "http://127.0.0.1:3000";
const SECRET = randomBytes(32).toString("base64url");
let database: TestDatabase;
let context: AppContext;
let base: string;
let close: () => Promise<void>;
let cookie: string;

beforeAll(async () => {
  database = await createTestDatabase();
  await seedCatalogue(database.db);
  const env = loadEnv({ DATA_DIR: mkdtempSync(path.join(tmpdir(), "torepoke-json-api-")), BETTER_AUTH_SECRET: SECRET, SITE_URL: SITE, LOG_LEVEL: "silent" });
  context = { db: database.db, env, cspNonce: "test" };
  // A trader whose offer has a match, so マッチ has something to answer.
  const [a, b] = await catalogueCards(database.db, "◆◆", 2);
  const me = await createUser(database.db);
  const other = await createUser(database.db);
  await createOffer(database.db, me.id, OfferInputSchema.parse({ give: [{ cardId: a.id, count: 1 }], want: [{ cardId: b.id, count: 1 }] }));
  await createOffer(database.db, other.id, OfferInputSchema.parse({ give: [{ cardId: b.id, count: 1 }], want: [{ cardId: a.id, count: 1 }] }));
  cookie = await createSessionCookie(database.db, me.id, SECRET);
  const app = express();
  app.use(jsonApi({ siteOrigin: SITE, context: () => context }));
  const server = app.listen(0, "127.0.0.1");
  await once(server, "listening");
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => new Promise((resolve) => server.close(() => resolve()));
});
afterAll(async () => {
  await close?.();
  await database?.close();
});

type Answer = { status: number; type: string | null; cacheControl: string | null; body: string };
const read = async (response: Response): Promise<Answer> => ({
  status: response.status,
  type: response.headers.get("content-type"),
  cacheControl: response.headers.get("cache-control"),
  body: await response.text(),
});

/** The route module's answer: what React Router sends for a resource route's loader. */
async function viaRouteModule(loader: (args: { request: Request; context: AppContext }) => Promise<unknown>, url: string, headers: HeadersInit) {
  const result = await loader({ request: new Request(`${SITE}${url}`, { headers }), context }).catch((thrown: unknown) => thrown);
  if (!(result instanceof Response)) throw new Error(`${url}: the loader answered ${String(result)}`);
  return read(result);
}

const CASES: [string, typeof cardSearchLoader, string, boolean][] = [
  ["search", cardSearchLoader, "/api/cards/search?q=%E3%83%94%E3%82%AB%E3%83%81%E3%83%A5%E3%82%A6", false],
  ["search, tradeable only", cardSearchLoader, "/api/cards/search?q=%E3%83%94&tradeableOnly=1&excludePacks=shining-high", false],
  ["board", boardLoader, "/api/trades", false],
  ["board, damaged cursor", boardLoader, "/api/trades?cursor=not-a-cursor", false],
  ["board, signed in", boardLoader, "/api/trades", true],
  ["マッチ, signed out", matchesLoader, "/api/trades/matches", false],
  ["マッチ", matchesLoader, "/api/trades/matches", true],
  ["マッチ, bad page", matchesLoader, "/api/trades/matches?page=zero", true],
  ["マッチ, English", matchesLoader, "/api/trades/matches?page=zero", true],
];

describe("the JSON endpoints Express answers directly", () => {
  it("covers every endpoint it serves", () => {
    expect(Object.keys(JSON_ENDPOINTS).sort()).toEqual(["/api/cards/search", "/api/trades", "/api/trades/matches"]);
  });

  it.each(CASES)("%s: the same status, headers and body as the route module", async (name, loader, url, signedIn) => {
    const headers: Record<string, string> = {};
    if (signedIn) headers.cookie = cookie;
    if (name.endsWith("English")) headers.cookie = `${headers.cookie}; lang=en`;
    const expected = await viaRouteModule(loader, url, headers);
    const actual = await read(await fetch(`${base}${url}`, { headers }));
    expect(actual.status).toBe(expected.status);
    expect(actual.type).toBe(expected.type);
    expect(actual.cacheControl).toBe(expected.cacheControl);
    expect(actual.body).toBe(expected.body);
  });

  it("answers refusals as the shared error mapping says", async () => {
    const signedOut = await fetch(`${base}/api/trades/matches`);
    expect(signedOut.status).toBe(401);
    const badPage = await fetch(`${base}/api/trades/matches?page=zero`, { headers: { cookie: `${cookie}; lang=en` } });
    expect(badPage.status).toBe(400);
    expect(await badPage.json()).toEqual({ error: "Invalid page number", code: "invalid_page" });
  });
});
