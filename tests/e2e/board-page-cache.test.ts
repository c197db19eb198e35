import { randomBytes } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { signUp } from "#tests/support/instances.ts";
import { startServer, type RunningServer } from "#tests/support/server.ts";
import { createSharedDatabase } from "#tests/support/shared-database.ts";

// The signed-out page cache keeps the board's renders for PAGE_CACHE_SECONDS; a board change (the
// change bus, app/lib/change-bus.server.ts) makes it forget them on this instance and, through
// Redis, on every other one. An hour of cache here: without the bus, the old board would stay.
const databaseUrl = process.env.TEST_DATABASE_URL;
const redisUrl = process.env.TEST_REDIS_URL;
const servers: RunningServer[] = [];
let drop: (() => Promise<void>) | null = null;

afterAll(async () => {
  for (const s of servers) await s.stop();
  await drop?.();
});

async function postOffer(server: RunningServer, cookie: string): Promise<string> {
  const cardsRes = await fetch(`${server.url}/api/cards?pack=pikachu&rarity=${encodeURIComponent("◆◆◆◆")}&limit=2`);
  const { cards } = (await cardsRes.json()) as { cards: { id: string }[] };
  const res = await fetch(`${server.url}/api/trades`, {
    method: "POST",
    headers: { origin: server.url, cookie, "content-type": "application/json" },
    body: JSON.stringify({ give: [{ cardId: cards[0].id, count: 1 }], want: [{ cardId: cards[1].id, count: 1 }], comment: "" }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

/** The signed-out board as the page cache answers it. */
async function board(server: RunningServer): Promise<{ cache: string | null; body: string }> {
  const res = await fetch(`${server.url}/api/trades`);
  return { cache: res.headers.get("x-page-cache"), body: await res.text() };
}

describe("the signed-out board after a board change", () => {
  it("on one instance: the next signed-out read shows the new offer, not the cached board", async () => {
    const server = await startServer({ PAGE_CACHE_SECONDS: "3600", LOG_LEVEL: "warn" });
    servers.push(server);
    await board(server);
    expect((await board(server)).cache).toBe("hit");
    const offerId = await postOffer(server, (await signUp(server, "掲示板")).cookie);
    const after = await board(server);
    expect(after.cache).toBe("miss");
    expect(after.body).toContain(offerId);
  }, 120_000);
});

describe.runIf(databaseUrl && redisUrl)("the signed-out board on two instances sharing PostgreSQL and Redis", () => {
  it("an offer posted on one instance shows in the other instance's cached signed-out board", async () => {
    const database = await createSharedDatabase(databaseUrl!, "torepoke_board");
    drop = database.drop;
    const env = { DATABASE_URL: database.url, REDIS_URL: redisUrl!, BETTER_AUTH_SECRET: randomBytes(32).toString("base64url"), LOG_LEVEL: "warn", PAGE_CACHE_SECONDS: "3600" };
    const one = await startServer(env);
    servers.push(one);
    const two = await startServer({ ...env, SEED_CATALOGUE: "never" });
    servers.push(two);
    await board(two);
    expect((await board(two)).cache).toBe("hit");
    const offerId = await postOffer(one, (await signUp(one, "掲示板")).cookie);
    // The relay is asynchronous (Redis): wait for the condition, well inside the cache's hour.
    await expect.poll(async () => (await board(two)).body.includes(offerId), { timeout: 10_000, interval: 100 }).toBe(true);
  }, 180_000);
});
