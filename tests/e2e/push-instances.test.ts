import { randomBytes } from "node:crypto";
import pg from "pg";
import webpush from "web-push";
import { afterAll, describe, expect, it } from "vitest";
import { call, chatSocket, http, signUp, type ChatClient } from "#tests/support/instances.ts";
import { startTestPushService, type TestPushService } from "#tests/support/push-service.ts";
import { startServer, type RunningServer } from "#tests/support/server.ts";
import { createSharedDatabase } from "#tests/support/shared-database.ts";
import { startTestSmtpServer, type TestSmtpServer } from "#tests/support/smtp-server.ts";
import { until } from "#tests/support/wait.ts";

const databaseUrl = process.env.TEST_DATABASE_URL;
const redisUrl = process.env.TEST_REDIS_URL;

const servers: RunningServer[] = [];
const sockets: ChatClient[] = [];
let push: TestPushService | null = null;
let smtp: TestSmtpServer | null = null;
let client: pg.Client | null = null;
let drop: (() => Promise<void>) | null = null;

afterAll(async () => {
  for (const s of sockets) s.close();
  for (const s of servers) await s.stop();
  await client?.end();
  await drop?.();
  await push?.close();
  await smtp?.close();
});

type Player = { id: string; email: string; cookie: string };

/** Confirms the address with the verification mail's link (notification mail goes to verified addresses only). */
async function verify(server: RunningServer, player: Player) {
  await until(() => smtp!.to(player.email).length > 0, "the verification mail");
  const link = /https?:\/\/\S+verify-email\S+/.exec(smtp!.to(player.email)[0].text ?? "")?.[0];
  if (!link) throw new Error("no verification link");
  const res = await fetch(link.replace(/^https?:\/\/[^/]+/, server.url), { redirect: "manual" });
  expect(res.status).toBeLessThan(400);
}

/** A device of `player` subscribed at the local push service, registered through `server`. */
async function device(server: RunningServer, player: Player, vapidPublicKey: string) {
  const sub = await push!.subscribe(vapidPublicKey);
  const res = await http(server, "/api/push/subscription", { cookie: player.cookie, json: { endpoint: sub.endpoint, keys: sub.keys } });
  expect(res.status).toBe(201);
  return sub.clientHash;
}

describe.runIf(databaseUrl && redisUrl)("notifications with two instances sharing PostgreSQL and Redis", () => {
  it("a player viewing the room on one instance gets no push or mail for a message sent through the other; a player away gets exactly one of each", async () => {
    push = await startTestPushService();
    smtp = await startTestSmtpServer();
    const database = await createSharedDatabase(databaseUrl!, "torepoke_push");
    drop = database.drop;
    // One key pair and one auth secret for both: a subscription made through either instance is
    // signed for by whichever instance's worker delivers it.
    const vapid = webpush.generateVAPIDKeys();
    const env = {
      DATABASE_URL: database.url,
      REDIS_URL: redisUrl!,
      BETTER_AUTH_SECRET: randomBytes(32).toString("base64url"),
      VAPID_PUBLIC_KEY: vapid.publicKey,
      VAPID_PRIVATE_KEY: vapid.privateKey,
      SMTP_URL: smtp.url,
      PUSH_SERVICE_ORIGINS: push.url,
      NOTIFICATION_MAIL_DELAY_SECONDS: "2",
      LOG_LEVEL: "warn",
    };
    // One after the other: the first applies the migrations and loads the catalogue.
    const one = await startServer(env);
    servers.push(one);
    const two = await startServer({ ...env, SEED_CATALOGUE: "never" });
    servers.push(two);
    client = new pg.Client({ connectionString: database.url });
    await client.connect();
    const db = client;
    /** Every queued delivery is done (delayed mail checks included): nothing more can arrive. */
    const settled = () =>
      until(async () => Number((await db.query<{ n: string }>("select count(*) as n from delivery_outbox where status = 'pending'")).rows[0].n) === 0, "the outbox to drain", 30_000);

    const cardsRes = await http(one, `/api/cards?pack=pikachu&rarity=${encodeURIComponent("◆◆◆◆")}&limit=2`);
    const { cards } = (await cardsRes.json()) as { cards: { id: string }[] };
    /** `owner` posts through `owner`'s instance, `partner` answers through the other: their room. */
    async function room(owner: Player, on: RunningServer, partner: Player, other: RunningServer): Promise<string> {
      const offer = await http(on, "/api/trades", { cookie: owner.cookie, json: { give: [{ cardId: cards[0].id, count: 1 }], want: [{ cardId: cards[1].id, count: 1 }], comment: "" } });
      expect(offer.status).toBe(201);
      const { id } = (await offer.json()) as { id: string };
      const res = await http(other, `/api/trades/${id}`, { cookie: partner.cookie, json: { action: "respond" } });
      expect(res.status).toBe(200);
      return ((await res.json()) as { roomId: string }).roomId;
    }

    const key = ((await (await http(one, "/api/notifications/settings", { cookie: (await signUp(one, "鍵")).cookie })).json()) as { vapidPublicKey: string }).vapidPublicKey;
    expect(key).toBe(vapid.publicKey);

    // Players who look at their room on instance one; their partners write through instance two.
    const viewers: { owner: Player; partner: Player; hash: string; roomId: string }[] = [];
    for (let i = 0; i < 3; i++) {
      const owner = await signUp(one, `見る${i}`);
      const partner = await signUp(two, `書く${i}`);
      await verify(one, owner);
      const hash = await device(one, owner, key);
      const roomId = await room(owner, one, partner, two);
      viewers.push({ owner, partner, hash, roomId });
    }
    // Players who are away (no socket anywhere); the messages go through either instance.
    const away: { owner: Player; partner: Player; hash: string; roomId: string; via: RunningServer }[] = [];
    for (let i = 0; i < 4; i++) {
      const on = i % 2 ? two : one;
      const other = i % 2 ? one : two;
      const owner = await signUp(on, `留守${i}`);
      const partner = await signUp(other, `話す${i}`);
      await verify(on, owner);
      const hash = await device(on, owner, key);
      const roomId = await room(owner, on, partner, other);
      away.push({ owner, partner, hash, roomId, via: other });
    }
    // The 交渉する notifications go out first (their own push and mail): only the messages count below.
    await settled();

    for (const v of viewers) {
      const socket = await chatSocket(one, v.owner.cookie, sockets);
      expect(await call(socket, "chat:join", { roomId: v.roomId })).toMatchObject({ ok: true });
    }
    const writers = await Promise.all([...viewers.map((v) => ({ ...v, via: two })), ...away].map(async (w) => ({ ...w, socket: await chatSocket(w.via, w.partner.cookie, sockets) })));
    for (const w of writers) {
      expect(await call(w.socket, "chat:join", { roomId: w.roomId })).toMatchObject({ ok: true });
      expect(await call(w.socket, "chat:send", { roomId: w.roomId, clientId: `m-${w.roomId}`, body: "交換お願いします" })).toMatchObject({ ok: true });
    }
    await until(() => away.every((a) => push!.received.some((r) => r.clientHash === a.hash && /新しいメッセージ/.test(JSON.parse(r.payload).body))), "the pushes to the players away", 30_000);
    await settled();

    const messagePushes = (hash: string) => push!.received.filter((r) => r.clientHash === hash && /新しいメッセージ/.test(JSON.parse(r.payload).body));
    const messageMails = (email: string) => smtp!.to(email).filter((m) => /新しいメッセージ/.test(m.subject ?? ""));
    expect(viewers.map((v) => messagePushes(v.hash).length)).toEqual([0, 0, 0]);
    expect(viewers.map((v) => messageMails(v.owner.email).length)).toEqual([0, 0, 0]);
    expect(away.map((a) => messagePushes(a.hash).length)).toEqual([1, 1, 1, 1]);
    expect(away.map((a) => messageMails(a.owner.email).length)).toEqual([1, 1, 1, 1]);
    for (const a of away) expect(JSON.parse(messagePushes(a.hash)[0].payload)).toMatchObject({ url: `/chat/${a.roomId}` });
    // Nothing at all went out twice: each push payload once per device, each subject once per address.
    const pushKeys = push!.received.map((r) => `${r.clientHash} ${r.payload}`);
    expect(new Set(pushKeys).size).toBe(pushKeys.length);
    const mailKeys = smtp!.received.map((m) => `${m.envelopeTo.join(",")} ${m.subject}`);
    expect(new Set(mailKeys).size).toBe(mailKeys.length);
    // The viewers' notifications were written and are still unread: the deliveries saw them and held back.
    const unread = await db.query<{ n: string }>("select count(*) as n from notifications where kind = 'message' and read_at is null and user_id = any($1)", [viewers.map((v) => v.owner.id)]);
    expect(Number(unread.rows[0].n)).toBe(3);
  }, 240_000);
});
