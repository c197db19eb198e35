import { sql } from "drizzle-orm";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import webpush from "web-push";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "#app/db/client.server.ts";
import { rowsOf } from "#app/db/sql.server.ts";
import { markRead, sendMessage } from "#app/features/chat/chat.server.ts";
import { enqueueDelivery, startOutboxWorker, type OutboxWorker } from "#app/features/outbox/outbox.server.ts";
import { registerNotificationChannels } from "#app/notification-pipeline.server.ts";
import { DEFAULT_CHOICES, jstMinutes } from "#app/features/push/preferences.ts";
import { saveNotificationPreferences } from "#app/features/push/preferences.server.ts";
import { setPresence } from "#app/features/push/presence.server.ts";
import { PUSH_DELIVERY, queueTestPush } from "#app/features/push/push-channel.server.ts";
import { PushError } from "#app/features/push/errors.ts";
import { countSubscriptions, MAX_SUBSCRIPTIONS_PER_USER, PushSubscriptionSchema, saveSubscription } from "#app/features/push/subscriptions.server.ts";
import { roomTopic } from "#app/features/push/web-push.server.ts";
import type { Env } from "#app/lib/env.server.ts";
import { createChatOffer, createChatRoom, newClientId } from "#tests/support/chat-factories.ts";
import { startTestPushService, type TestPushService } from "#tests/support/push-service.ts";
import { createTestDatabase, type TestDatabase } from "#tests/support/test-db.ts";
import { until } from "#tests/support/wait.ts";

let database: TestDatabase;
let push: TestPushService;
/** Answers every request with a redirect to the push service (a push service never redirects). */
let redirector: Server;
let redirectorUrl: string;
let redirectorHits = 0;
const keys = webpush.generateVAPIDKeys();
const vapid = { ...keys, subject: "mailto:no-reply@torepoke.test" };
const workers: OutboxWorker[] = [];
const extra: Database[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  push = await startTestPushService();
  redirector = createServer((req, res) => {
    redirectorHits++;
    res.writeHead(307, { Location: `${push.url}${req.url}` }).end();
  });
  await new Promise<void>((resolve) => redirector.listen(0, "127.0.0.1", () => resolve()));
  redirectorUrl = `http://127.0.0.1:${(redirector.address() as AddressInfo).port}`;
  registerNotificationChannels({ env: { vapid, pushServiceOrigins: [push.url, redirectorUrl], siteUrl: "http://localhost:3000", authSecret: "x".repeat(32), notificationMailDelaySeconds: 600 } as Env, db: database.db });
});
afterEach(async () => {
  await Promise.all(workers.splice(0).map((w) => w.stop()));
  setPresence(null);
});
afterAll(async () => {
  await Promise.all(extra.map((d) => d.close()));
  await push?.close();
  await new Promise((resolve) => redirector?.close(resolve));
  await database?.close();
});

function worker(db = database.db) {
  const w = startOutboxWorker({ db, pollMs: 20, retryBaseMs: 10 });
  workers.push(w);
  return w;
}

/** A device of `userId` subscribed at the local push service. */
async function device(userId: string) {
  const sub = await push.subscribe(vapid.publicKey);
  const id = await saveSubscription(database.db, userId, sub, { sessionId: null, userAgent: "test", locale: "ja", pushServiceOrigins: [push.url] });
  return { ...sub, id, pushes: () => push.received.filter((r) => r.clientHash === sub.clientHash) };
}

const send = (roomId: string, userId: string, body: string) => sendMessage(database.db, { roomId, userId, clientId: newClientId(), body });

/** Every queued delivery has been handled (sent, failed or waiting for later). */
async function settled() {
  await until(async () => {
    const [row] = await rowsOf<{ n: string }>(database.db, sql`select count(*) as n from delivery_outbox where status = 'pending' and run_at <= now()`);
    return Number(row.n) === 0;
  }, "the outbox to drain");
}

describe("web push through the outbox", () => {
  it("a chat message reaches the player's device encrypted and signed, with TTL, urgency and the room's topic, naming the offer's cards and quoting the message", async () => {
    const { roomId, owner, partner } = await createChatRoom(database.db);
    const phone = await device(owner.id);
    worker();
    await send(roomId, partner.id, "こんにちは");
    await until(() => phone.pushes().length === 1, "the push");
    const [received] = phone.pushes();
    expect(JSON.parse(received.payload)).toEqual({
      title: "トレポケ",
      body: `${partner.name}さんから新しいメッセージが1件あります（譲 ピカチュウex ⇄ 求 リザードンex）\n「こんにちは」`,
      url: `/chat/${roomId}`,
      tag: `room-${roomId}`,
      badge: 1,
      lang: "ja",
    });
    expect(received.ttl).toBe("86400");
    expect(received.urgency).toBe("high");
    expect(received.topic).toBe(roomTopic(roomId));
    expect(received.topic!.length).toBeLessThanOrEqual(32);

    // The next message of the unread room: the same topic (the push service keeps the latest), the new count.
    await send(roomId, partner.id, "まだいますか？");
    await until(() => phone.pushes().length === 2, "the second push");
    expect(phone.pushes()[1].topic).toBe(received.topic);
    expect(JSON.parse(phone.pushes()[1].payload).body).toBe(`${partner.name}さんから新しいメッセージが2件あります（譲 ピカチュウex ⇄ 求 リザードンex）\n「まだいますか？」`);
    const [sub] = await rowsOf<{ last_success_at: Date | null }>(database.db, sql`select last_success_at from push_subscriptions where id = ${phone.id}::uuid`);
    expect(sub.last_success_at).not.toBeNull();
  });

  it("a subscription the push service answers 410 for is deleted, and the player's other device still gets the push", async () => {
    const { roomId, owner, partner } = await createChatRoom(database.db);
    const gone = await device(owner.id);
    const kept = await device(owner.id);
    push.expire(gone.clientHash);
    worker();
    await send(roomId, partner.id, "こんにちは");
    await until(() => kept.pushes().length === 1, "the push to the other device");
    await until(async () => (await rowsOf(database.db, sql`select 1 from push_subscriptions where id = ${gone.id}::uuid`)).length === 0, "the expired subscription deleted");
    expect(gone.pushes()).toHaveLength(0);
  });

  it("a push service answering 403 (the site's key no longer matches) drops the subscription", async () => {
    const { roomId, owner, partner } = await createChatRoom(database.db);
    const phone = await device(owner.id);
    push.failNext(1, 403);
    worker();
    await send(roomId, partner.id, "こんにちは");
    await until(async () => (await rowsOf(database.db, sql`select 1 from push_subscriptions where id = ${phone.id}::uuid`)).length === 0, "the refused subscription deleted");
    await settled();
    const [row] = await rowsOf<{ n: string }>(database.db, sql`select count(*) as n from delivery_outbox where status = 'failed' and payload->>'sub' = ${phone.id}`);
    expect(Number(row.n)).toBe(0);
  });

  it("a push service that redirects is not followed: the subscription is dropped and nothing reaches the target", async () => {
    const { roomId, owner, partner } = await createChatRoom(database.db);
    const sub = await push.subscribe(vapid.publicKey);
    const endpoint = sub.endpoint.replace(push.url, redirectorUrl);
    const id = await saveSubscription(database.db, owner.id, { endpoint, keys: sub.keys }, { sessionId: null, userAgent: "test", locale: "ja", pushServiceOrigins: [redirectorUrl] });
    const hitsBefore = redirectorHits;
    worker();
    await send(roomId, partner.id, "こんにちは");
    await until(async () => (await rowsOf(database.db, sql`select 1 from push_subscriptions where id = ${id}::uuid`)).length === 0, "the redirected subscription deleted");
    expect(redirectorHits).toBe(hitsBefore + 1);
    expect(push.received.filter((r) => r.clientHash === sub.clientHash)).toHaveLength(0);
  });

  it("only known push services are accepted, and a stored endpoint elsewhere is dropped before anything is sent", async () => {
    const { roomId, owner, partner } = await createChatRoom(database.db);
    const keys = (await push.subscribe(vapid.publicKey)).keys;
    const save = (endpoint: string, origins: string[] = []) => saveSubscription(database.db, owner.id, { endpoint, keys }, { sessionId: null, userAgent: "test", locale: "ja", pushServiceOrigins: origins });
    for (const endpoint of [
      "https://10.0.0.1/push/abc",
      "https://169.254.169.254/latest/meta-data",
      "https://localhost/push",
      "http://127.0.0.1:9/push",
      "http://fcm.googleapis.com/fcm/send/abc",
      "https://fcm.googleapis.com:8443/fcm/send/abc",
      "https://fcm.googleapis.com.evil.example/fcm/send/abc",
      "https://evilpush.apple.com.example/x",
      "https://user@fcm.googleapis.com/fcm/send/abc",
    ]) {
      await expect(save(endpoint), endpoint).rejects.toBeInstanceOf(PushError);
    }
    await expect(save(`${push.url}/notify/x`, ["http://127.0.0.1:1"])).rejects.toBeInstanceOf(PushError);
    for (const endpoint of [
      "https://fcm.googleapis.com/fcm/send/abc",
      "https://updates.push.services.mozilla.com/wpush/v2/abc",
      "https://web.push.apple.com/QGx",
      "https://api.push.apple.com/3/device/x",
      "https://wns2-par02p.notify.windows.com/w/?token=x",
    ]) {
      await expect(save(endpoint), endpoint).resolves.toMatch(/./);
    }
    await database.db.execute(sql`delete from push_subscriptions where user_id = ${owner.id}`);
    // A row saved under an older rule (or with another configuration): the same host by another name.
    const sub = await push.subscribe(vapid.publicKey);
    const elsewhere = sub.endpoint.replace("127.0.0.1", "localhost");
    const [row] = await rowsOf<{ id: string }>(
      database.db,
      sql`insert into push_subscriptions (user_id, endpoint, p256dh, auth, locale) values (${owner.id}, ${elsewhere}, ${sub.keys.p256dh}, ${sub.keys.auth}, 'ja') returning id`,
    );
    worker();
    await send(roomId, partner.id, "こんにちは");
    await until(async () => (await rowsOf(database.db, sql`select 1 from push_subscriptions where id = ${row.id}::uuid`)).length === 0, "the stored endpoint dropped");
    expect(push.received.filter((r) => r.clientHash === sub.clientHash)).toHaveLength(0);
  });

  it("a player keeps at most 10 devices: the next one replaces the oldest; the same endpoint again is no new device", async () => {
    const { owner } = await createChatRoom(database.db);
    const phones = [];
    for (let i = 0; i < MAX_SUBSCRIPTIONS_PER_USER; i++) phones.push(await device(owner.id));
    expect(await countSubscriptions(database.db, owner.id)).toBe(10);
    await device(owner.id);
    expect(await countSubscriptions(database.db, owner.id)).toBe(10);
    expect(await rowsOf(database.db, sql`select 1 from push_subscriptions where id = ${phones[0].id}::uuid`)).toHaveLength(0);
    expect(await rowsOf(database.db, sql`select 1 from push_subscriptions where id = ${phones[1].id}::uuid`)).toHaveLength(1);
    await saveSubscription(database.db, owner.id, { endpoint: phones[5].endpoint, keys: phones[5].keys }, { sessionId: null, userAgent: "test", locale: "ja", pushServiceOrigins: [push.url] });
    expect(await countSubscriptions(database.db, owner.id)).toBe(10);
    expect(await rowsOf(database.db, sql`select 1 from push_subscriptions where id = ${phones[1].id}::uuid`)).toHaveLength(1);
  });

  it("keys must have the sizes RFC 8291 gives: p256dh a 65-byte point starting 0x04, auth 16 bytes", async () => {
    const { keys, endpoint } = await push.subscribe(vapid.publicKey);
    const b64 = (bytes: number[]) => Buffer.from(bytes).toString("base64url");
    expect(PushSubscriptionSchema.safeParse({ endpoint, keys }).success).toBe(true);
    const point = [...Buffer.from(keys.p256dh, "base64url")];
    for (const bad of [
      { p256dh: b64(point.slice(0, 64)), auth: keys.auth },
      { p256dh: b64([2, ...point.slice(1)]), auth: keys.auth },
      { p256dh: keys.p256dh, auth: b64(new Array(15).fill(7)) },
      { p256dh: keys.p256dh, auth: b64(new Array(32).fill(7)) },
    ]) {
      expect(PushSubscriptionSchema.safeParse({ endpoint, keys: bad }).success, JSON.stringify(bad)).toBe(false);
    }
  });

  it("a notification read before its push is due, or a room the player has open, sends nothing", async () => {
    const { roomId, owner, partner } = await createChatRoom(database.db);
    const phone = await device(owner.id);
    const sent = await send(roomId, partner.id, "既読にします");
    await markRead(database.db, roomId, owner.id, sent.message.seq);
    worker();
    await settled();
    expect(phone.pushes()).toHaveLength(0);

    setPresence({ isOnline: async () => true, isViewingRoom: async (userId, id) => userId === owner.id && id === roomId });
    await send(roomId, partner.id, "見ていますね");
    await settled();
    expect(phone.pushes()).toHaveLength(0);
  });

  it("a block or an account deletion made after the notification was written stops its push", async () => {
    const blocked = await createChatRoom(database.db);
    const blockedPhone = await device(blocked.owner.id);
    const gone = await createChatRoom(database.db);
    const gonePhone = await device(gone.owner.id);
    const goneActor = await createChatRoom(database.db);
    const goneActorPhone = await device(goneActor.owner.id);
    await send(blocked.roomId, blocked.partner.id, "ブロック前");
    await send(gone.roomId, gone.partner.id, "退会前");
    await send(goneActor.roomId, goneActor.partner.id, "相手が退会");
    await rowsOf(database.db, sql`insert into blocks (blocker_id, blocked_id) values (${blocked.owner.id}, ${blocked.partner.id}) returning blocker_id`);
    await rowsOf(database.db, sql`update profiles set deleted_at = now() where user_id in (${gone.owner.id}, ${goneActor.partner.id}) returning user_id`);
    worker();
    await settled();
    expect(blockedPhone.pushes()).toHaveLength(0);
    expect(gonePhone.pushes()).toHaveLength(0);
    expect(goneActorPhone.pushes()).toHaveLength(0);
  });

  it("a push held for quiet hours is not sent when the player turned push off for that kind meanwhile", async () => {
    const now = jstMinutes(new Date());
    const quiet = { start: (now + 1440 - 60) % 1440, end: (now + 60) % 1440, mode: "hold" as const, exempt: [] };
    const { roomId, owner, partner } = await createChatRoom(database.db);
    const phone = await device(owner.id);
    await saveNotificationPreferences(database.db, owner.id, { channels: DEFAULT_CHOICES, quiet, previews: true, locale: "ja" });
    worker();
    await send(roomId, partner.id, "夜中です");
    await until(async () => (await rowsOf(database.db, sql`select 1 from delivery_outbox where kind = 'push' and payload->>'sub' = ${phone.id}`)).length === 1, "the held push");
    await saveNotificationPreferences(database.db, owner.id, { channels: { ...DEFAULT_CHOICES, message: { ...DEFAULT_CHOICES.message, push: "off" } }, quiet, previews: true, locale: "ja" });
    // Quiet hours end.
    await rowsOf(database.db, sql`update delivery_outbox set run_at = now() where kind = 'push' and payload->>'sub' = ${phone.id} returning id`);
    await settled();
    const [row] = await rowsOf<{ status: string }>(database.db, sql`select status from delivery_outbox where kind = 'push' and payload->>'sub' = ${phone.id}`);
    expect(row.status).toBe("sent");
    expect(phone.pushes()).toHaveLength(0);
  });

  it("a presence lookup that fails counts as not present and the push still goes out; a malformed push row fails at once", async () => {
    const { roomId, owner, partner } = await createChatRoom(database.db);
    const phone = await device(owner.id);
    setPresence({
      isOnline: () => Promise.reject(new Error("operation has timed out")),
      isViewingRoom: () => Promise.reject(new Error("operation has timed out")),
    });
    worker();
    await send(roomId, partner.id, "タイムアウト");
    await until(() => phone.pushes().length === 1, "the push");
    await settled();
    const [row] = await rowsOf<{ status: string; attempts: number }>(database.db, sql`select status, attempts from delivery_outbox where kind = 'push' and payload->>'sub' = ${phone.id}`);
    expect(row).toMatchObject({ status: "sent", attempts: 1 });

    // A row that breaks the push payload's schema (written by hand, as an older version might have).
    await database.db.execute(sql`insert into delivery_outbox (kind, payload, dedupe_key) values ('push', ${JSON.stringify({ sub: phone.id, id: "not-a-count" })}::jsonb, ${`malformed:${phone.id}`})`);
    await settled();
    const [malformed] = await rowsOf<{ status: string; attempts: number; last_error: string }>(
      database.db,
      sql`select status, attempts, last_error from delivery_outbox where dedupe_key = ${`malformed:${phone.id}`}`,
    );
    expect(malformed).toMatchObject({ status: "failed", attempts: 1, last_error: "malformed push payload" });
  });

  it("a push service that is busy (429, 503) is tried again and the push arrives once", async () => {
    const { roomId, owner, partner } = await createChatRoom(database.db);
    const phone = await device(owner.id);
    push.failNext(2, 503);
    worker();
    await send(roomId, partner.id, "再送テスト");
    await until(() => phone.pushes().length === 1, "the push after retries");
    await settled();
    expect(phone.pushes()).toHaveLength(1);
    const [row] = await rowsOf<{ attempts: number; status: string }>(
      database.db,
      sql`select attempts, status from delivery_outbox where kind = 'push' and payload->>'sub' = ${phone.id}`,
    );
    expect(row).toMatchObject({ attempts: 3, status: "sent" });
  });

  it("push turned off for messages queues nothing; quiet hours hold the push until they end, or send it silently", async () => {
    const quietAround = () => {
      const now = jstMinutes(new Date());
      return { start: (now + 1440 - 60) % 1440, end: (now + 60) % 1440 };
    };
    const off = await createChatRoom(database.db);
    const offPhone = await device(off.owner.id);
    await saveNotificationPreferences(database.db, off.owner.id, { channels: { ...DEFAULT_CHOICES, message: { ...DEFAULT_CHOICES.message, push: "off" } }, quiet: null, previews: true, locale: "ja" });

    const held = await createChatRoom(database.db);
    const heldPhone = await device(held.owner.id);
    await saveNotificationPreferences(database.db, held.owner.id, { channels: DEFAULT_CHOICES, quiet: { ...quietAround(), mode: "hold", exempt: [] }, previews: true, locale: "ja" });

    const silent = await createChatRoom(database.db);
    const silentPhone = await device(silent.owner.id);
    await saveNotificationPreferences(database.db, silent.owner.id, { channels: DEFAULT_CHOICES, quiet: { ...quietAround(), mode: "silent", exempt: [] }, previews: true, locale: "ja" });

    worker();
    await send(off.roomId, off.partner.id, "オフ");
    await send(held.roomId, held.partner.id, "夜中です");
    await send(silent.roomId, silent.partner.id, "静かに");
    await until(() => silentPhone.pushes().length === 1, "the silent push");
    expect(JSON.parse(silentPhone.pushes()[0].payload)).toMatchObject({ silent: true });
    expect(silentPhone.pushes()[0].urgency).toBe("low");
    await settled();
    expect(offPhone.pushes()).toHaveLength(0);
    expect(heldPhone.pushes()).toHaveLength(0);
    const [waiting] = await rowsOf<{ run_at: Date; status: string }>(
      database.db,
      sql`select run_at, status from delivery_outbox where kind = 'push' and payload->>'sub' = ${heldPhone.id}`,
    );
    expect(waiting.status).toBe("pending");
    const waitMinutes = (new Date(waiting.run_at).getTime() - Date.now()) / 60_000;
    expect(waitMinutes).toBeGreaterThan(58);
    expect(waitMinutes).toBeLessThanOrEqual(61);
    expect((await rowsOf(database.db, sql`select 1 from delivery_outbox where kind = 'push' and payload->>'sub' = ${offPhone.id}`)).length).toBe(0);
  });

  it("the test button pushes to each of the player's devices", async () => {
    const { owner } = await createChatRoom(database.db);
    const phone = await device(owner.id);
    worker();
    expect(await queueTestPush(database.db, owner.id)).toBe(1);
    await until(() => phone.pushes().length === 1, "the test push");
    expect(JSON.parse(phone.pushes()[0].payload)).toMatchObject({ title: "トレポケ（テスト通知）", url: "/profile#notification-settings" });
  });

  it("a push sent again after a crash carries the same Topic as the first (the push service keeps one): a notification outside a room, and the test push", async () => {
    const { owner } = await createChatRoom(database.db);
    const phone = await device(owner.id);
    const offer = await createChatOffer(database.db, owner.id);
    const [notification] = await rowsOf<{ id: string }>(
      database.db,
      sql`insert into notifications (user_id, kind, offer_id) values (${owner.id}, 'expiring', ${offer.id}::uuid) returning id`,
    );
    await enqueueDelivery(database.db, PUSH_DELIVERY, { payload: { sub: phone.id, id: notification.id, n: 1 } });
    await queueTestPush(database.db, owner.id);
    worker();
    await until(() => phone.pushes().length === 2, "the expiry push and the test push");
    await settled();
    // The worker died after the push service took them and before the rows were marked sent.
    await database.db.execute(sql`update delivery_outbox set status = 'pending', finished_at = null, locked_until = null where kind = 'push' and payload->>'sub' = ${phone.id}`);
    await until(() => phone.pushes().length === 4, "both pushes a second time");
    const byTag = new Map<string, (string | undefined)[]>();
    for (const p of phone.pushes()) {
      const tag = (JSON.parse(p.payload) as { tag: string }).tag;
      byTag.set(tag, [...(byTag.get(tag) ?? []), p.topic]);
    }
    expect([...byTag.keys()].sort()).toEqual([`n-${notification.id}`, "test"]);
    for (const [tag, topics] of byTag) {
      expect(topics, tag).toHaveLength(2);
      expect(topics[0], tag).toMatch(/^[A-Za-z0-9_-]{1,32}$/);
      expect(topics[1], tag).toBe(topics[0]);
    }
    expect(byTag.get("test")![0]).not.toBe(byTag.get(`n-${notification.id}`)![0]);
  });

  it("two instances deliver each push exactly once", async () => {
    const second = process.env.TEST_DB === "postgres" && database.url ? await openDatabase({ kind: "postgres", url: database.url, poolSize: 5 }) : null;
    if (second) extra.push(second);
    const rooms = await Promise.all(Array.from({ length: 12 }, () => createChatRoom(database.db)));
    const phones = await Promise.all(rooms.map((r) => device(r.owner.id)));
    worker();
    worker(second?.db ?? database.db);
    await Promise.all(rooms.map((r) => send(r.roomId, r.partner.id, "同時配送")));
    await until(() => phones.every((p) => p.pushes().length >= 1), "every push");
    await settled();
    expect(phones.map((p) => p.pushes().length)).toEqual(phones.map(() => 1));
  });
});
