import { sql, type SQL } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { rowsOf } from "#app/db/sql.server.ts";
import { markRead, sendMessage } from "#app/features/chat/chat.server.ts";
import { notifyNewOffer, notifyOfferResponse, notifyTradeStep } from "#app/features/notifications/notifications.server.ts";
import { digestBoundary, queueDigests, unsubscribeToken, verifyUnsubscribeToken } from "#app/features/mail/notification-mail.server.ts";
import { DEFAULT_CHOICES, jstMinutes } from "#app/features/push/preferences.ts";
import { getNotificationPreferences, saveNotificationPreferences, turnOffAllMail } from "#app/features/push/preferences.server.ts";
import { setPresence } from "#app/features/push/presence.server.ts";
import { createChatRoom, createChatUser, newClientId } from "#tests/support/chat-factories.ts";
import type { TestSmtpServer } from "#tests/support/smtp-server.ts";
import type { TestDatabase } from "#tests/support/test-db.ts";
import { notificationStand } from "#tests/support/notification-stand.ts";
import { until } from "#tests/support/wait.ts";

const secret = "s".repeat(40);
const stand = notificationStand(secret);
let database: TestDatabase;
let smtp: TestSmtpServer;
beforeAll(() => {
  ({ database, smtp } = stand);
});
const worker = () => stand.worker();
const channelEnv = stand.env;

async function verified(userId: string): Promise<string> {
  const [row] = await rowsOf<{ email: string }>(database.db, sql`update users set email_verified = true where id = ${userId} returning email`);
  return row.email;
}

async function settled() {
  await until(async () => {
    const [row] = await rowsOf<{ n: string }>(database.db, sql`select count(*) as n from delivery_outbox where status = 'pending' and run_at <= now() and kind <> 'push'`);
    return Number(row.n) === 0;
  }, "the outbox to drain");
}

/** A raw header's value as sent (mailparser folds the List-* headers into its own object). */
const header = (mail: { headerLines: readonly { key: string; line: string }[] }, key: string) =>
  mail.headerLines.find((h) => h.key === key)?.line.replace(/^[^:]+:\s*/, "");

const send = (roomId: string, userId: string, body: string) => sendMessage(database.db, { roomId, userId, clientId: newClientId(), body });

describe("notification mail for a player who is away", () => {
  it("an unread message is mailed once, with the link, the settings and a one-click unsubscribe that needs no session", async () => {
    const { roomId, owner, partner } = await createChatRoom(database.db);
    const email = await verified(owner.id);
    worker();
    await send(roomId, partner.id, "こんにちは");
    await send(roomId, partner.id, "まだいますか");
    await until(() => smtp.to(email).length === 1, "the mail");
    await settled();
    expect(smtp.to(email)).toHaveLength(1);
    const mail = smtp.to(email)[0];
    // One mail for the room, saying how many messages wait when it goes out.
    expect(mail.subject).toBe(`【トレポケ】${partner.name}さんから新しいメッセージが2件あります（譲 ピカチュウex ⇄ 求 リザードンex）`);
    expect(mail.text).toContain(`http://localhost:3000/chat/${roomId}`);
    expect(mail.text).toContain("http://localhost:3000/profile#notification-settings");
    const token = unsubscribeToken(secret, owner.id);
    expect(header(mail, "list-unsubscribe")).toBe(`<http://localhost:3000/notifications/unsubscribe?token=${token}>`);
    expect(header(mail, "list-unsubscribe-post")).toBe("List-Unsubscribe=One-Click");
    expect(verifyUnsubscribeToken(secret, token)).toBe(owner.id);
    expect(verifyUnsubscribeToken(secret, unsubscribeToken("another secret".padEnd(32, "!"), owner.id))).toBeNull();
    expect(verifyUnsubscribeToken(secret, "garbage")).toBeNull();

    // Unsubscribed: every kind's mail is off, and the next unread room sends nothing.
    await turnOffAllMail(database.db, owner.id);
    expect(Object.values((await getNotificationPreferences(database.db, owner.id)).channels).every((c) => c.mail === "off")).toBe(true);
    const second = await createChatRoom(database.db);
    await rowsOf(database.db, sql`update chat_rooms set owner_id = ${owner.id} where id = ${second.roomId}::uuid returning id`);
    await send(second.roomId, second.partner.id, "別の部屋");
    await settled();
    expect(smtp.to(email)).toHaveLength(1);
  });

  it("a 交渉 and its first message that fall due together are one mail naming the offer's cards and quoting the message's first line", async () => {
    const { roomId, owner, partner, offer } = await createChatRoom(database.db);
    const email = await verified(owner.id);
    await notifyOfferResponse(database.db, { roomId, offerId: offer.id, ownerId: owner.id, responderId: partner.id });
    await send(roomId, partner.id, "はじめまして！\nピカチュウexとリザードンexで交換お願いします");
    worker();
    await until(() => smtp.to(email).length === 1, "the mail");
    await settled();
    expect(smtp.to(email)).toHaveLength(1);
    const mail = smtp.to(email)[0];
    expect(mail.subject).toBe(`【トレポケ】${partner.name}さんがあなたの募集に交渉を申し込みました（譲 ピカチュウex ⇄ 求 リザードンex）`);
    expect(mail.text).toContain(`${partner.name}さんから新しいメッセージが1件あります（譲 ピカチュウex ⇄ 求 リザードンex）\n\n「はじめまして！」`);
    expect(mail.text).not.toContain("交換お願いします");
    expect(mail.text).toContain(`http://localhost:3000/chat/${roomId}`);
    const mailed = await rowsOf<{ n: string }>(database.db, sql`select count(*) as n from notifications where user_id = ${owner.id} and mailed_at is not null`);
    expect(Number(mailed[0].n)).toBe(2);

    // With previews off the mail names the cards but quotes nothing.
    const quiet = await createChatRoom(database.db);
    const quietEmail = await verified(quiet.owner.id);
    await saveNotificationPreferences(database.db, quiet.owner.id, { channels: DEFAULT_CHOICES, quiet: null, previews: false, locale: "ja" });
    await send(quiet.roomId, quiet.partner.id, "ひみつの内容");
    await until(() => smtp.to(quietEmail).length === 1, "the mail without preview");
    expect(smtp.to(quietEmail)[0].text).toContain("（譲 ピカチュウex ⇄ 求 リザードンex）");
    expect(smtp.to(quietEmail)[0].text).not.toContain("ひみつの内容");
  });

  it("a step that comes while the room's message is already mailed is mailed once, on its own, even if a later message's check runs first", async () => {
    const { roomId, owner, partner } = await createChatRoom(database.db);
    const email = await verified(owner.id);
    const first = worker();
    await send(roomId, partner.id, "こんにちは");
    await until(() => smtp.to(email).length === 1, "the message's mail");
    await settled();
    await first.stop();

    // Still unread: a new message bumps the mailed notification (its check runs again), and a
    // moment later the partner agrees to the terms. The bump's check runs before the step's own.
    await send(roomId, partner.id, "条件に合意しますね");
    await notifyTradeStep(database.db, { roomId, actorId: partner.id, recipientId: owner.id, step: "agree" });
    const [step] = await rowsOf<{ id: string }>(database.db, sql`select id from notifications where user_id = ${owner.id} and kind = 'step'`);
    const hold = (runAt: SQL) =>
      rowsOf(database.db, sql`update delivery_outbox set run_at = ${runAt} where kind = 'notify' and status = 'pending' and payload->>'id' = ${step.id} returning id`);
    expect(await hold(sql`now() + interval '1 hour'`)).toHaveLength(1);
    worker();
    await settled();
    const pending = await rowsOf<{ n: string }>(database.db, sql`select count(*) as n from delivery_outbox where kind = 'notify-mail' and status = 'pending' and payload->>'id' <> ${step.id}`);
    expect(Number(pending[0].n)).toBe(0);
    // The bump mails nothing (the message was mailed) and leaves the step to its own check.
    expect(smtp.to(email)).toHaveLength(1);
    const [unmailed] = await rowsOf<{ mailed_at: Date | null }>(database.db, sql`select mailed_at from notifications where id = ${step.id}::uuid`);
    expect(unmailed.mailed_at).toBeNull();

    // The step's own check: exactly one more mail, naming the step and not the message again.
    await hold(sql`now()`);
    await until(() => smtp.to(email).length === 2, "the step's mail");
    await settled();
    expect(smtp.to(email)).toHaveLength(2);
    const mail = smtp.to(email)[1];
    expect(mail.subject).toBe(`【トレポケ】${partner.name}さんが条件に合意しました（譲 ピカチュウex ⇄ 求 リザードンex）`);
    expect(mail.text).not.toContain("新しいメッセージ");
    expect(mail.text).toContain(`http://localhost:3000/chat/${roomId}`);
  });

  it("quiet hours hold the mail (at once and the digest) unless the player exempted mail; it goes out when they end", async () => {
    const now = jstMinutes(new Date());
    const around = { start: (now + 1440 - 60) % 1440, end: (now + 60) % 1440, mode: "hold" as const };
    const held = await createChatRoom(database.db);
    const heldEmail = await verified(held.owner.id);
    await saveNotificationPreferences(database.db, held.owner.id, { channels: DEFAULT_CHOICES, quiet: { ...around, exempt: [] }, previews: true, locale: "ja" });
    const exempt = await createChatRoom(database.db);
    const exemptEmail = await verified(exempt.owner.id);
    await saveNotificationPreferences(database.db, exempt.owner.id, { channels: DEFAULT_CHOICES, quiet: { ...around, exempt: ["mail"] }, previews: true, locale: "ja" });
    worker();
    await send(held.roomId, held.partner.id, "夜中です");
    await send(exempt.roomId, exempt.partner.id, "メールは届く");
    await until(() => smtp.to(exemptEmail).length === 1, "the exempted mail");
    await settled();
    expect(smtp.to(heldEmail)).toHaveLength(0);
    const [waiting] = await rowsOf<{ run_at: Date | string }>(database.db, sql`select run_at from delivery_outbox where kind = 'notify-mail' and status = 'pending' and dedupe_key like ${"%:quiet:%"} and payload->>'id' = (select id::text from notifications where user_id = ${held.owner.id})`);
    expect(jstMinutes(new Date(waiting.run_at))).toBe(around.end);
    // The quiet hours end.
    await saveNotificationPreferences(database.db, held.owner.id, { channels: DEFAULT_CHOICES, quiet: { start: (now + 120) % 1440, end: (now + 180) % 1440, mode: "hold", exempt: [] }, previews: true, locale: "ja" });
    await rowsOf(database.db, sql`update delivery_outbox set run_at = now() where kind = 'notify-mail' and status = 'pending' and dedupe_key like ${"%:quiet:%"} returning id`);
    await until(() => smtp.to(heldEmail).length === 1, "the held mail");

    // The digest at 8:00 JST waits for quiet hours 7:00–9:00 to end.
    const digest = await createChatRoom(database.db);
    const digestEmail = await verified(digest.owner.id);
    await saveNotificationPreferences(database.db, digest.owner.id, { channels: { ...DEFAULT_CHOICES, message: { ...DEFAULT_CHOICES.message, mail: "digest" } }, quiet: { start: 7 * 60, end: 9 * 60, mode: "hold", exempt: [] }, previews: true, locale: "ja" });
    await send(digest.roomId, digest.partner.id, "まとめて");
    const boundary = digestBoundary(new Date());
    await rowsOf(database.db, sql`update notifications set created_at = ${new Date(boundary.getTime() - 3600_000).toISOString()}::timestamptz where user_id = ${digest.owner.id} returning id`);
    await queueDigests(database.db, channelEnv, new Date(boundary.getTime() + 60_000));
    await settled();
    expect(smtp.to(digestEmail)).toHaveLength(0);
    await queueDigests(database.db, channelEnv, new Date(boundary.getTime() + 61 * 60_000));
    await until(() => smtp.to(digestEmail).length === 1, "the digest after quiet hours");
  });

  it("no mail when the notification was read in time, when the player is online, or when the address is not verified", async () => {
    const read = await createChatRoom(database.db);
    const readEmail = await verified(read.owner.id);
    const sent = await send(read.roomId, read.partner.id, "読みました？");
    await markRead(database.db, read.roomId, read.owner.id, sent.message.seq);

    const online = await createChatRoom(database.db);
    const onlineEmail = await verified(online.owner.id);
    setPresence({ isOnline: async (userId) => userId === online.owner.id, isViewingRoom: async () => false });
    await send(online.roomId, online.partner.id, "オンライン");

    const unverified = await createChatRoom(database.db);
    await send(unverified.roomId, unverified.partner.id, "未確認");

    worker();
    await settled();
    expect(smtp.to(readEmail)).toHaveLength(0);
    expect(smtp.to(onlineEmail)).toHaveLength(0);
    expect(smtp.to(`${unverified.owner.id}@example.com`)).toHaveLength(0);
  });

  it("a block or an account deletion made after the notification was written stops its mail and leaves it out of the digest", async () => {
    const blocked = await createChatRoom(database.db);
    const blockedEmail = await verified(blocked.owner.id);
    await send(blocked.roomId, blocked.partner.id, "ブロック前");
    const goneActor = await createChatRoom(database.db);
    const goneActorEmail = await verified(goneActor.owner.id);
    await send(goneActor.roomId, goneActor.partner.id, "相手が退会");
    await rowsOf(database.db, sql`insert into blocks (blocker_id, blocked_id) values (${blocked.partner.id}, ${blocked.owner.id}) returning blocker_id`);
    await rowsOf(database.db, sql`update profiles set deleted_at = now() where user_id = ${goneActor.partner.id} returning user_id`);
    worker();
    await settled();
    expect(smtp.to(blockedEmail)).toHaveLength(0);
    expect(smtp.to(goneActorEmail)).toHaveLength(0);

    // The digest: one allowed notification and one from a player blocked since.
    const digest = await createChatRoom(database.db);
    const email = await verified(digest.owner.id);
    const otherPartner = await createChatUser(database.db);
    const [otherRoom] = await rowsOf<{ id: string }>(
      database.db,
      sql`insert into chat_rooms (offer_id, owner_id, partner_id) values (${digest.offer.id}::uuid, ${digest.owner.id}, ${otherPartner.id}) returning id`,
    );
    const other = { roomId: otherRoom.id, partner: otherPartner };
    await saveNotificationPreferences(database.db, digest.owner.id, { channels: { ...DEFAULT_CHOICES, message: { ...DEFAULT_CHOICES.message, mail: "digest" } }, quiet: null, previews: true, locale: "ja" });
    await send(digest.roomId, digest.partner.id, "まとめて");
    await send(other.roomId, other.partner.id, "ブロックされる");
    await rowsOf(database.db, sql`insert into blocks (blocker_id, blocked_id) values (${digest.owner.id}, ${other.partner.id}) returning blocker_id`);
    // A player whose only digest item is from someone they blocked since gets no digest at all.
    const onlyBlocked = await createChatRoom(database.db);
    const onlyBlockedEmail = await verified(onlyBlocked.owner.id);
    await saveNotificationPreferences(database.db, onlyBlocked.owner.id, { channels: { ...DEFAULT_CHOICES, message: { ...DEFAULT_CHOICES.message, mail: "digest" } }, quiet: null, previews: true, locale: "ja" });
    await send(onlyBlocked.roomId, onlyBlocked.partner.id, "ブロックされる");
    await rowsOf(database.db, sql`insert into blocks (blocker_id, blocked_id) values (${onlyBlocked.owner.id}, ${onlyBlocked.partner.id}) returning blocker_id`);
    const at = new Date(digestBoundary(new Date()).getTime() + 60_000);
    await rowsOf(
      database.db,
      sql`update notifications set created_at = ${new Date(at.getTime() - 3600_000).toISOString()}::timestamptz where user_id in (${digest.owner.id}, ${onlyBlocked.owner.id}) returning id`,
    );
    expect(await queueDigests(database.db, channelEnv, at)).toBe(1);
    await until(() => smtp.to(email).length === 1, "the digest");
    const mail = smtp.to(email)[0];
    expect(mail.subject).toBe("【トレポケ】未読のお知らせが1件あります");
    expect(mail.text).toContain(`${digest.partner.name}さん`);
    expect(mail.text).not.toContain(`${other.partner.name}さん`);
    await settled();
    expect(smtp.to(onlyBlockedEmail)).toHaveLength(0);
  });

  it("the digest sweep reads the pending notifications through their partial index, not by scanning the table", async () => {
    // A table where most notifications are read or already mailed, as on a site that has run a while.
    const { owner, partner } = await createChatRoom(database.db);
    await rowsOf(
      database.db,
      sql`insert into notifications (user_id, kind, actor_id, detail, read_at, mailed_at, dedupe_key)
          select ${owner.id}, 'step', ${partner.id}, 'agree', case when i % 2 = 0 then now() end, case when i % 2 = 1 then now() end, 'index-' || i
          from generate_series(1, 3000) i returning id`,
    );
    await database.db.execute(sql`analyze notifications`);
    const plan = await rowsOf<Record<string, string>>(
      database.db,
      sql`explain select n.user_id from notifications n
          where n.read_at is null and n.mailed_at is null and n.created_at > now() - interval '1 day' and n.created_at <= now()`,
    );
    expect(plan.map((r) => Object.values(r)[0]).join("\n")).toContain("notifications_digest_pending_idx");
  });

  it("the unsubscribe link of a deleted account writes no preferences row", async () => {
    const { owner } = await createChatRoom(database.db);
    await rowsOf(database.db, sql`update profiles set deleted_at = now() where user_id = ${owner.id} returning user_id`);
    await turnOffAllMail(database.db, owner.id);
    await turnOffAllMail(database.db, "no-such-user");
    expect(await rowsOf(database.db, sql`select 1 from notification_preferences where user_id in (${owner.id}, 'no-such-user')`)).toHaveLength(0);
  });

  it("the daily digest gathers the unread notifications of kinds set to まとめて, once per day across instances", async () => {
    const { roomId, owner, partner, offer } = await createChatRoom(database.db);
    const email = await verified(owner.id);
    await saveNotificationPreferences(database.db, owner.id, { channels: { ...DEFAULT_CHOICES, message: { ...DEFAULT_CHOICES.message, mail: "digest" } }, quiet: null, previews: true, locale: "ja" });
    await send(roomId, partner.id, "まとめて");
    // A want-list hit (digest by default) as well.
    await rowsOf(database.db, sql`insert into wanted_cards (user_id, card_id) values (${owner.id}, ${offer.giveCardId}) returning user_id`);
    await notifyNewOffer(database.db, { offerId: offer.id, ownerId: partner.id, matchedOwners: [] });
    // The sweep runs a minute after the day's digest time; the notifications came in the hour before it.
    const at = new Date(digestBoundary(new Date()).getTime() + 60_000);
    await rowsOf(database.db, sql`update notifications set created_at = ${new Date(at.getTime() - 3600_000).toISOString()}::timestamptz where user_id = ${owner.id} returning id`);
    worker();
    const [a, b] = await Promise.all([queueDigests(database.db, channelEnv, at), queueDigests(database.db, channelEnv, at)]);
    expect(a + b).toBe(1);
    await until(() => smtp.to(email).length === 1, "the digest");
    const mail = smtp.to(email)[0];
    expect(mail.subject).toBe("【トレポケ】未読のお知らせが2件あります");
    expect(mail.text).toContain(`${partner.name}さんから新しいメッセージが1件あります`);
    expect(mail.text).toContain("ほしいカード「ピカチュウex」");
    expect(header(mail, "list-unsubscribe-post")).toBe("List-Unsubscribe=One-Click");
    expect(await queueDigests(database.db, channelEnv, at)).toBe(0);
  });
});
