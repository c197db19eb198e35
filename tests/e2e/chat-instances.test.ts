import { randomBytes } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import type { ChatMessage } from "#app/features/chat/protocol.ts";
import { call, chatSocket as openSocket, http, signUp, type ChatClient } from "#tests/support/instances.ts";
import { startServer, type RunningServer } from "#tests/support/server.ts";
import { createSharedDatabase } from "#tests/support/shared-database.ts";

const databaseUrl = process.env.TEST_DATABASE_URL;
const redisUrl = process.env.TEST_REDIS_URL;

const servers: RunningServer[] = [];
const sockets: ChatClient[] = [];
let dropDatabase: (() => Promise<void>) | null = null;

const chatSocket = (server: RunningServer, cookie: string) => openSocket(server, cookie, sockets);

afterAll(async () => {
  for (const s of sockets) s.close();
  for (const s of servers) await s.stop();
  await dropDatabase?.();
});

/** A fresh PostgreSQL database both instances share. */
async function freshDatabase(adminUrl: string): Promise<string> {
  const database = await createSharedDatabase(adminUrl, "torepoke_chat");
  dropDatabase = database.drop;
  return database.url;
}

function nextMessage(socket: ChatClient, body: string): Promise<ChatMessage> {
  return new Promise((resolve) => {
    const on = (m: ChatMessage) => {
      if (m.body !== body) return;
      socket.off("chat:message", on);
      resolve(m);
    };
    socket.on("chat:message", on);
  });
}

describe.runIf(databaseUrl && redisUrl)("two server instances sharing PostgreSQL and Redis", () => {
  it("one participant on each instance: messages flow both ways, and nothing is lost when an instance stops", async () => {
    const env = {
      DATABASE_URL: await freshDatabase(databaseUrl!),
      REDIS_URL: redisUrl!,
      BETTER_AUTH_SECRET: randomBytes(32).toString("base64url"),
      LOG_LEVEL: "warn",
    };
    // One after the other: the first applies the migrations and loads the catalogue.
    const one = await startServer(env);
    servers.push(one);
    const two = await startServer({ ...env, SEED_CATALOGUE: "never" });
    servers.push(two);

    const owner = await signUp(one, "イチ");
    const partner = await signUp(two, "ニイ");
    const cardsRes = await http(one, `/api/cards?pack=pikachu&rarity=${encodeURIComponent("◆◆◆◆")}&limit=2`);
    const { cards } = (await cardsRes.json()) as { cards: { id: string }[] };
    const offerRes = await http(one, "/api/trades", {
      cookie: owner.cookie,
      json: { give: [{ cardId: cards[0].id, count: 1 }], want: [{ cardId: cards[1].id, count: 1 }], comment: "" },
    });
    expect(offerRes.status).toBe(201);
    const { id: offerId } = (await offerRes.json()) as { id: string };
    const respondRes = await http(two, `/api/trades/${offerId}`, { cookie: partner.cookie, json: { action: "respond" } });
    const { roomId } = (await respondRes.json()) as { roomId: string };

    const a = await chatSocket(one, owner.cookie);
    const b = await chatSocket(two, partner.cookie);
    expect(await call(a, "chat:join", { roomId })).toMatchObject({ ok: true });
    expect(await call(b, "chat:join", { roomId })).toMatchObject({ ok: true });

    const atB = nextMessage(b, "1号機から");
    expect(await call(a, "chat:send", { roomId, clientId: "m1", body: "1号機から" })).toMatchObject({ ok: true });
    expect((await atB).senderId).toBe(owner.id);
    const atA = nextMessage(a, "2号機から");
    expect(await call(b, "chat:send", { roomId, clientId: "m2", body: "2号機から" })).toMatchObject({ ok: true });
    expect((await atA).senderId).toBe(partner.id);

    // Instance one goes away; B keeps writing on two; A comes back through two and syncs.
    a.close();
    expect(await one.stop()).toBe(0);
    for (let i = 1; i <= 3; i++) expect(await call(b, "chat:send", { roomId, clientId: `after-${i}`, body: `停止中 ${i}` })).toMatchObject({ ok: true });
    const again = await chatSocket(two, owner.cookie);
    expect(await call(again, "chat:join", { roomId })).toMatchObject({ ok: true, lastSeq: 5 });
    const sync = await call<{ messages: ChatMessage[] }>(again, "chat:sync", { roomId, afterSeq: 2 });
    expect(sync.ok && sync.messages.map((m) => [m.seq, m.body])).toEqual([
      [3, "停止中 1"],
      [4, "停止中 2"],
      [5, "停止中 3"],
    ]);
  });
});
