import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedCatalogue } from "#app/features/cards/catalogue.server.ts";
import { loadEnv } from "#app/lib/env.server.ts";
import { registerFeatureLinks } from "#app/registrations.server.ts";
import * as adminDecks from "#app/routes/api.admin.decks.ts";
import * as adminDeck from "#app/routes/api.admin.decks.$id.ts";
import * as publicDeck from "#app/routes/api.decks.$slug.ts";
import { createSessionCookie } from "#tests/support/chat-factories.ts";
import { createUser } from "#tests/support/factories.ts";
import { startHttpApp } from "#tests/support/http-app.ts";
import { createTestDatabase, type TestDatabase } from "#tests/support/test-db.ts";

// Publishing a deck the game's rules refuse, through the real Express app: the deck service
// answers 422 unless the request says the admin confirmed it, as the editor's dialog does.
const SITE = "http://torepoke.test";
const SECRET = randomBytes(32).toString("base64url");
let database: TestDatabase;
let server: Awaited<ReturnType<typeof startHttpApp>>;
let cookie: string;

beforeAll(async () => {
  registerFeatureLinks();
  database = await createTestDatabase();
  await seedCatalogue(database.db);
  const env = loadEnv({ DATA_DIR: mkdtempSync(path.join(tmpdir(), "torepoke-decks-http-")), BETTER_AUTH_SECRET: SECRET, SITE_URL: SITE, LOG_LEVEL: "silent" });
  server = await startHttpApp({ env, database, routes: { "api/admin/decks": adminDecks, "api/admin/decks/:id": adminDeck, "api/decks/:slug": publicDeck } });
  const admin = await createUser(database.db, { role: "admin" });
  cookie = await createSessionCookie(database.db, admin.id, SECRET);
}, 120_000);
afterAll(async () => {
  await server?.close();
  await database?.close();
});

async function call(method: string, pathname: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${server.base}${pathname}`, {
    method,
    headers: { host: new URL(SITE).host, origin: SITE, cookie, accept: "application/json", ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json().catch(() => ({}))) as Record<string, unknown> };
}

const LEGAL = ["A1-096", "A1-104", "A1-105", "A1-106", "PROMO-A-007", "PROMO-A-005", "A1-225", "A1-223", "PROMO-A-002", "PROMO-A-001"].map((cardId) => ({ cardId, count: 2 }));
// Four cards: the page would say このままでは構築できません.
const FOUR = [
  { cardId: "A1-096", count: 2 },
  { cardId: "A1-104", count: 2 },
];
const deck = (over: Record<string, unknown> = {}) => ({ name: `雷デッキ${randomBytes(2).toString("hex")}`, tier: 2, category: "deck-recipe", energyTypes: ["electric"], cards: FOUR, isPublic: true, ...over });
const REFUSAL = { status: 422, body: { code: "illegal_deck", error: "このデッキはこのままでは構築できません。ルールを満たさないデッキを公開するには、公開してよいか確認してから保存してください" } };

describe("publishing a deck that breaks the rules, through Express", () => {
  it("POST refuses an illegal public deck without the confirmation and stores nothing; with it the deck is public", async () => {
    const slug = `four_${randomBytes(3).toString("hex")}`;
    expect(await call("POST", "/api/admin/decks", deck({ slug }))).toEqual(REFUSAL);
    expect((await call("GET", `/api/decks/${slug}`)).status).toBe(404);
    expect((await call("GET", "/api/admin/decks")).body.decks).not.toContainEqual(expect.objectContaining({ slug }));

    const confirmed = await call("POST", "/api/admin/decks", deck({ slug, publishIllegal: true }));
    expect(confirmed.status).toBe(201);
    const shown = await call("GET", `/api/decks/${slug}`);
    expect(shown).toMatchObject({ status: 200, body: { slug, legality: { status: "illegal", total: 4 } } });
  });

  it("PATCH refuses making an illegal deck public (and keeping it public) without the confirmation; a private or legal deck needs none", async () => {
    const created = await call("POST", "/api/admin/decks", deck({ isPublic: false }));
    expect(created.status).toBe(201);
    const id = created.body.id as string;

    const publish = await call("PATCH", `/api/admin/decks/${id}`, deck({ revision: 1 }));
    expect(publish).toEqual(REFUSAL);
    const stored = await call("GET", `/api/admin/decks/${id}`);
    expect(stored.body).toMatchObject({ isPublic: false, revision: 1 });

    const confirmed = await call("PATCH", `/api/admin/decks/${id}`, deck({ revision: 1, publishIllegal: true }));
    expect(confirmed).toMatchObject({ status: 200, body: { revision: 2 } });
    // Every save that leaves it public and illegal is confirmed again, as the editor asks each time.
    expect(await call("PATCH", `/api/admin/decks/${id}`, deck({ revision: 2 }))).toEqual(REFUSAL);

    expect(await call("PATCH", `/api/admin/decks/${id}`, deck({ revision: 2, cards: LEGAL }))).toMatchObject({ status: 200, body: { revision: 3 } });
    expect(await call("PATCH", `/api/admin/decks/${id}`, deck({ revision: 3, isPublic: false, cards: [] }))).toMatchObject({ status: 200, body: { revision: 4 } });
  });

  it("a stale save of an illegal public deck hears 409 (someone saved since), not 422, and writes nothing", async () => {
    const created = await call("POST", "/api/admin/decks", deck({ isPublic: false, cards: LEGAL }));
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    expect(await call("PATCH", `/api/admin/decks/${id}`, deck({ revision: 1, isPublic: false, cards: LEGAL }))).toMatchObject({ status: 200, body: { revision: 2 } });

    const stale = await call("PATCH", `/api/admin/decks/${id}`, deck({ revision: 1 }));
    expect(stale.status).toBe(409);
    expect(stale.body.code).toBe("conflict");
    expect((await call("GET", `/api/admin/decks/${id}`)).body).toMatchObject({ isPublic: false, revision: 2 });
    // The current revision with the same illegal deck is the rule's refusal again.
    expect(await call("PATCH", `/api/admin/decks/${id}`, deck({ revision: 2 }))).toEqual(REFUSAL);
  });

  it("refuses a confirmation that is not a boolean as bad input", async () => {
    const answer = await call("POST", "/api/admin/decks", deck({ publishIllegal: "yes" }));
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe("invalid_input");
  });
});
