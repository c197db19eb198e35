import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { AppLoadContext } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sendMessage } from "#app/features/chat/chat.server.ts";
import { loadEnv } from "#app/lib/env.server.ts";
import { loader as apiLoader } from "#app/routes/api.chat.rooms.$roomId.messages.ts";
import { loader as pageLoader } from "#app/routes/chat.tsx";
import { createChatRoom, createChatUser, createSessionCookie, newClientId } from "#tests/support/chat-factories.ts";
import { createTestDatabase, type TestDatabase } from "#tests/support/test-db.ts";

const SECRET = randomBytes(32).toString("base64url");
let database: TestDatabase;
let context: AppLoadContext;
beforeAll(async () => {
  database = await createTestDatabase();
  const env = loadEnv({ DATA_DIR: mkdtempSync(path.join(tmpdir(), "torepoke-chat-routes-")), BETTER_AUTH_SECRET: SECRET, SITE_URL: "http://127.0.0.1:3000", LOG_LEVEL: "silent" });
  context = { db: database.db, env, cspNonce: "test" } as AppLoadContext;
});
afterAll(async () => {
  await database?.close();
});

const request = (url: string, cookie?: string) => new Request(`http://127.0.0.1:3000${url}`, { headers: cookie ? { cookie } : {} });
// React Router hands a loader more than these three; the chat loaders read only them.
type LoaderArgs<F extends (...args: never[]) => unknown> = Parameters<F>[0];
const page = (url: string, roomId: string, cookie?: string) =>
  pageLoader({ request: request(url, cookie), params: { roomId }, context } as unknown as LoaderArgs<typeof pageLoader>);
const api = (url: string, roomId: string, cookie?: string) =>
  apiLoader({ request: request(url, cookie), params: { roomId }, context } as unknown as LoaderArgs<typeof apiLoader>);

/** What a loader threw or returned, as a status and body. */
async function outcome(run: () => Promise<unknown>): Promise<{ status: number; body: unknown; location?: string | null }> {
  try {
    const value = await run();
    if (value instanceof Response) return { status: value.status, body: await value.json() };
    const init = (value as { init?: { status?: number } }).init;
    return { status: init?.status ?? 200, body: (value as { data?: unknown }).data ?? value };
  } catch (thrown) {
    if (thrown instanceof Response) {
      return { status: thrown.status, body: thrown.headers.get("content-type")?.includes("json") ? await thrown.json() : null, location: thrown.headers.get("location") };
    }
    const init = (thrown as { init?: { status?: number } }).init;
    if (init?.status) return { status: init.status, body: (thrown as { data?: unknown }).data };
    throw thrown;
  }
}

describe("the chat page and history API enforce membership", () => {
  it("the page renders for a participant, answers 404 to anyone else and sends the signed-out to log in", async () => {
    const { roomId, owner, partner } = await createChatRoom(database.db);
    const stranger = await createChatUser(database.db);
    await sendMessage(database.db, { roomId, userId: owner.id, clientId: newClientId(), body: "SSRで表示" });
    const [ownerCookie, partnerCookie, strangerCookie] = await Promise.all([owner.id, partner.id, stranger.id].map((id) => createSessionCookie(database.db, id, SECRET)));

    const mine = await outcome(() => page(`/chat/${roomId}`, roomId, partnerCookie));
    expect(mine.status).toBe(200);
    const room = (mine.body as { room: { initialMessages: { body: string }[]; partner: { id: string } } }).room;
    expect(room.initialMessages.map((m) => m.body)).toEqual(["SSRで表示"]);
    expect(room.partner.id).toBe(owner.id);

    expect((await outcome(() => page(`/chat/${roomId}`, roomId, strangerCookie))).status).toBe(404);
    expect((await outcome(() => page("/chat/not-a-room", "not-a-room", ownerCookie))).status).toBe(404);
    const signedOut = await outcome(() => page(`/chat/${roomId}`, roomId));
    expect(signedOut.status).toBe(302);
    expect(signedOut.location).toBe(`/login?redirectTo=${encodeURIComponent(`/chat/${roomId}`)}`);
  });

  it("the history API serves participants only: 404 JSON for others, 401 signed out, 400 for bad parameters", async () => {
    const { roomId, owner, partner } = await createChatRoom(database.db);
    const stranger = await createChatUser(database.db);
    for (let i = 1; i <= 3; i++) await sendMessage(database.db, { roomId, userId: owner.id, clientId: `h${i}`, body: `履歴 ${i}` });
    const [ownerCookie, partnerCookie, strangerCookie] = await Promise.all([owner.id, partner.id, stranger.id].map((id) => createSessionCookie(database.db, id, SECRET)));

    const after = await outcome(() => api(`/api/chat/rooms/${roomId}/messages?afterSeq=1`, roomId, partnerCookie));
    expect(after.status).toBe(200);
    expect((after.body as { messages: { body: string }[] }).messages.map((m) => m.body)).toEqual(["履歴 2", "履歴 3"]);
    const before = await outcome(() => api(`/api/chat/rooms/${roomId}/messages?beforeSeq=3`, roomId, partnerCookie));
    expect((before.body as { messages: { seq: number }[] }).messages.map((m) => m.seq)).toEqual([1, 2]);

    expect(await outcome(() => api(`/api/chat/rooms/${roomId}/messages`, roomId, strangerCookie))).toEqual({
      status: 404,
      body: { error: "チャットルームが見つかりません", code: "not_found" },
    });
    expect((await outcome(() => api(`/api/chat/rooms/${roomId}/messages`, roomId))).status).toBe(401);
    expect((await outcome(() => api(`/api/chat/rooms/${roomId}/messages?afterSeq=-1`, roomId, ownerCookie))).status).toBe(400);
    expect((await outcome(() => api(`/api/chat/rooms/${roomId}/messages?afterSeq=1&beforeSeq=3`, roomId, ownerCookie))).status).toBe(400);
    // Sequence numbers are int4: a cursor past that range is bad input, not a database error.
    for (const query of ["afterSeq=99999999999", "afterSeq=2147483648", "beforeSeq=2147483648", "afterSeq=1.5"]) {
      const bad = await outcome(() => api(`/api/chat/rooms/${roomId}/messages?${query}`, roomId, ownerCookie));
      expect(bad.status, query).toBe(400);
      expect(bad.body, query).toMatchObject({ error: expect.any(String) });
    }
    const edge = await outcome(() => api(`/api/chat/rooms/${roomId}/messages?afterSeq=2147483647`, roomId, ownerCookie));
    expect(edge).toMatchObject({ status: 200, body: { messages: [] } });
  });
});
