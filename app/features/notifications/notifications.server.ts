import { sql, type SQL } from "drizzle-orm";
import { offerOpenNow } from "#app/db/open-offers.ts";
import { wantStillOpen } from "#app/db/open-wants.ts";
import type { Db } from "#app/db/client.server.ts";
import { rowsOf, type Queryable } from "#app/db/sql.server.ts";
import { wakeDeliveryWorkers } from "#app/features/outbox/outbox.server.ts";
import { announce, dispatchesHere, messageNoticeWritten, NOTICE_DELIVERY } from "./notice-dispatch.server";
import type { NotificationKind, NotificationView, OfferCardsView } from "./types";

/** A message preview is its first line, cut at this many characters. */
export const PREVIEW_MAX = 80;

/**
 * The inbox (docs/architecture.md "Notifications (inbox)"). Every `notify*` runs inside the transaction of the change that caused
 * it, so a notification exists exactly when its cause committed. The rules live in the SQL of one
 * insert, whichever service calls it:
 * - never to the actor themself, never when either side blocked the other;
 * - never about a deleted account (actor_id cascades with the account; an insert whose actor is
 *   already gone writes nothing);
 * - a chat message is one unread notification per room: further messages bump its count and time
 *   until the room is read (the partial unique index `notifications_unread_room_unique`).
 * Each row written also queues a `notify` delivery in the same statement: the channels (push,
 * mail: features/push/channels.server.ts) take it from the outbox after the commit. A chat
 * message's notification is its own outbox entry instead (notice-dispatch.server.ts).
 */

export { NOTICE_DELIVERY };

/**
 * Runs an insert into notifications (which must return id and count) and queues one `notify`
 * delivery per row it wrote, in one statement. Answers how many rows it wrote.
 */
async function insertAndAnnounce(db: Queryable, insert: SQL): Promise<number> {
  const rows = await rowsOf<{ id: number }>(db, sql`with written as (${insert}) ${announce("written")}`);
  if (rows.length > 0) wakeDeliveryWorkers();
  return rows.length;
}

type NewNotification = {
  userId: string;
  kind: NotificationKind;
  actorId?: string | null;
  roomId?: string | null;
  offerId?: string | null;
  cardId?: string | null;
  detail?: string | null;
  dedupeKey?: string | null;
};

/** An account that exists and has not been deleted (deletion keeps the row as 退会したユーザー). */
export const present = (userId: SQL | string): SQL =>
  sql`exists (select 1 from users u where u.id = ${userId})
    and not exists (select 1 from profiles p where p.user_id = ${userId} and p.deleted_at is not null)`;

/**
 * The rule every notification passes: someone else, both accounts present, no block either way.
 * Checked when it is written, and again by each channel when it delivers (a block or a deletion
 * made in between stops the later push and mail): see getNotificationForDelivery.
 */
function allowed(userId: SQL, actorId: SQL | string | null): SQL {
  if (actorId === null) return present(userId);
  return sql`${userId} <> ${actorId}
    and ${present(actorId)}
    and ${present(userId)}
    and not exists (select 1 from blocks b
      where (b.blocker_id = ${userId} and b.blocked_id = ${actorId})
         or (b.blocker_id = ${actorId} and b.blocked_id = ${userId}))`;
}

async function insertOnce(db: Queryable, n: NewNotification): Promise<boolean> {
  const actorId = n.actorId ?? null;
  const written = await insertAndAnnounce(
    db,
    sql`insert into notifications (user_id, kind, actor_id, room_id, offer_id, card_id, detail, dedupe_key)
        select ${n.userId}, ${n.kind}, ${actorId}, ${n.roomId ?? null}::uuid, ${n.offerId ?? null}::uuid, ${n.cardId ?? null}, ${n.detail ?? null}, ${n.dedupeKey ?? null}
        where ${allowed(sql`${n.userId}`, actorId)}
        on conflict do nothing
        returning id, count`,
  );
  return written > 0;
}

type ChatMessageNotice = { roomId: string; senderId: string; recipientId: string };

/**
 * The room's one unread notification for a new message, created or bumped: one row per row of
 * `source`. `queued`: its `notify` row is queued in the same statement (a process that does not
 * deliver), so it counts as told; otherwise `dispatched_count` stays behind until this process
 * has told the channels (notice-dispatch.server.ts).
 */
const chatMessageInsert = (m: ChatMessageNotice, source: string | null, queued: boolean): SQL =>
  sql`insert into notifications (user_id, kind, actor_id, room_id, dispatched_count)
      select ${m.recipientId}, 'message', ${m.senderId}, ${m.roomId}::uuid, ${sql.raw(queued ? "1" : "0")} ${source ? sql`from ${sql.raw(source)}` : sql``}
      where ${allowed(sql`${m.recipientId}`, m.senderId)}
      on conflict (user_id, room_id) where kind = 'message' and read_at is null
      do update set count = notifications.count + 1, updated_at = now(), actor_id = excluded.actor_id,
        dispatched_count = ${queued ? sql`notifications.count + 1` : sql`notifications.dispatched_count`}
      returning id, count`;

/**
 * 申請しました on a friend board post: the poster hears who says they sent the request in the game,
 * with the friend ID it came from (in `detail`), once per post and applicant.
 */
export async function notifyFriendApplication(db: Queryable, a: { postId: string; ownerId: string; applicantId: string; applicantFriendId: string }): Promise<void> {
  await insertOnce(db, { userId: a.ownerId, kind: "friend", actorId: a.applicantId, detail: a.applicantFriendId, dedupeKey: `friend:${a.postId}:${a.applicantId}` });
}

/** What the caller runs once its transaction committed: the channels are told of the notice. */
export type NoticeCommitted = () => void;

/**
 * A new chat message for `recipientId`: the room's one unread notification, created or bumped.
 * Answers what to run after the caller's transaction commits.
 */
export async function notifyChatMessage(db: Queryable, m: ChatMessageNotice): Promise<NoticeCommitted> {
  if (!dispatchesHere()) {
    await insertAndAnnounce(db, chatMessageInsert(m, null, true));
    return wakeDeliveryWorkers;
  }
  const rows = await rowsOf<{ id: string; count: number }>(db, chatMessageInsert(m, null, false));
  return () => {
    for (const row of rows) messageNoticeWritten(row.id, Number(row.count));
  };
}

/**
 * notifyChatMessage as a common table expression (`notice`, with `notice_announced` in a process
 * that does not deliver) for the caller's own statement, written once per row of the caller's CTE
 * `after` (the stored message): the message and its notification are then one statement, one
 * round trip, atomic without a transaction. The caller selects `columns` too and hands its row to
 * `written()` after the statement.
 */
export function chatMessageNoticeCtes(m: ChatMessageNotice, after: string): { ctes: SQL; columns: SQL; written: (row: Record<string, unknown>) => void } {
  const columns = sql`(select notice.id from notice) as notice_id, (select notice.count from notice) as notice_count`;
  if (!dispatchesHere()) {
    return { ctes: sql`notice as (${chatMessageInsert(m, after, true)}), notice_announced as (${announce("notice")})`, columns, written: wakeDeliveryWorkers };
  }
  return {
    ctes: sql`notice as (${chatMessageInsert(m, after, false)})`,
    columns,
    written: (row) => {
      if (typeof row.notice_id === "string") messageNoticeWritten(row.notice_id, Number(row.notice_count));
    },
  };
}

/** 交渉する: someone opened a chat room on the owner's offer. */
export async function notifyOfferResponse(db: Queryable, r: { roomId: string; offerId: string; ownerId: string; responderId: string }): Promise<void> {
  await insertOnce(db, { userId: r.ownerId, kind: "response", actorId: r.responderId, roomId: r.roomId, offerId: r.offerId, dedupeKey: `response:${r.roomId}` });
}

/** The steps the partner hears about; `agreed`/`completed` follow a press already notified. */
const NOTIFIED_STEPS = new Set(["card_chosen", "agree", "friend_requested", "game_trade_requested", "complete", "cancel"]);

/** A trade step pressed in a room (system message `step`), for the other participant. */
export async function notifyTradeStep(db: Queryable, s: { roomId: string; actorId: string; recipientId: string; step: string }): Promise<void> {
  if (!NOTIFIED_STEPS.has(s.step)) return;
  await insertOnce(db, { userId: s.recipientId, kind: "step", actorId: s.actorId, roomId: s.roomId, detail: s.step });
}

/**
 * A new offer was posted: the owners of open offers it matches (`matchedOwners`, found by マッチ's
 * rules in features/trades/matches.server.ts: a same-rarity 1:1 trade, card for card or 何でも可)
 * and the players whose ほしいカード list holds a card it gives (a want their collection has since
 * met is quiet: docs/decisions/046). Once per offer and player.
 */
export async function notifyNewOffer(db: Queryable, o: { offerId: string; ownerId: string; matchedOwners: readonly string[] }): Promise<void> {
  if (o.matchedOwners.length) {
    await insertAndAnnounce(
      db,
      sql`insert into notifications (user_id, kind, actor_id, offer_id, dedupe_key)
          select distinct m.owner_id, 'match', ${o.ownerId}, ${o.offerId}::uuid, ${`offer:${o.offerId}`}
          from (values ${sql.join(o.matchedOwners.map((id) => sql`(${id})`), sql`, `)}) as m(owner_id)
          where m.owner_id <> ${o.ownerId} and ${allowed(sql`m.owner_id`, o.ownerId)}
          on conflict do nothing
          returning id, count`,
    );
  }
  // A player both matched and wanting a card hears once (same dedupe key): the match says more.
  await insertAndAnnounce(
    db,
    sql`insert into notifications (user_id, kind, actor_id, offer_id, card_id, dedupe_key)
        select distinct on (wc.user_id) wc.user_id, 'want', ${o.ownerId}, ${o.offerId}::uuid, wc.card_id, ${`offer:${o.offerId}`}
        from trade_offer_cards give
        join wanted_cards wc on wc.card_id = give.card_id
        where give.offer_id = ${o.offerId} and give.side = 'give'
          and ${wantStillOpen("wc")}
          and ${allowed(sql`wc.user_id`, o.ownerId)}
        order by wc.user_id, wc.created_at
        on conflict do nothing
        returning id, count`,
  );
}

/** The owner of the reported thing closed or a report dismissed: the reporter hears the outcome. */
export async function notifyReportOutcome(db: Queryable, r: { reportId: string; outcome: "actioned" | "dismissed" }): Promise<void> {
  await insertAndAnnounce(
    db,
    sql`insert into notifications (user_id, kind, offer_id, detail, dedupe_key)
        select r.reporter_id, 'report',
          case when r.target_type = 'offer' and exists (select 1 from trade_offers o where o.id::text = r.target_id) then r.target_id::uuid end,
          ${r.outcome}, ${`report:${r.reportId}`}
        from reports r where r.id = ${r.reportId}::uuid and ${allowed(sql`r.reporter_id`, null)}
        on conflict do nothing
        returning id, count`,
  );
}

/** Hours before expiry at which an open offer's owner is reminded. */
export const EXPIRY_NOTICE_HOURS = 12;

/**
 * Reminds owners of open offers that expire within 12 hours. Run by a timer on every instance:
 * the dedupe key (offer and its current expiry, which a bump moves) makes it once per expiry.
 */
export async function notifyExpiringOffers(db: Queryable): Promise<number> {
  return insertAndAnnounce(
    db,
    sql`insert into notifications (user_id, kind, offer_id, dedupe_key)
        select o.owner_id, 'expiring', o.id, 'expiring:' || o.id || ':' || extract(epoch from o.expires_at)::bigint
        from trade_offers o
        where ${offerOpenNow()}
          and o.expires_at <= now() + make_interval(hours => ${EXPIRY_NOTICE_HOURS})
        on conflict do nothing
        returning id, count`,
  );
}

// Reading

/**
 * The inbox shows a kind unless the player turned its サイト内 channel off (features/push/
 * preferences.ts); the row stays, so push and mail still take it.
 */
const shownInInboxOf = (alias: string): SQL =>
  sql.raw(`not exists (select 1 from notification_preferences np where np.user_id = ${alias}.user_id and np.channels -> ${alias}.kind ->> 'site' = 'off')`);
const shownInInbox = shownInInboxOf("n");

/**
 * The bell's count for a player (`userId` a value or a column of the caller's query): their unread
 * notifications the inbox shows. A scalar subquery, so a statement that reads something else of
 * the player can answer it in the same round trip (the dispatch of a notification does).
 */
export const unreadNotificationCount = (userId: SQL | string): SQL =>
  sql`(select count(*) from notifications bell where bell.user_id = ${userId} and bell.read_at is null and ${shownInInboxOf("bell")})`;

export async function countUnreadNotifications(db: Queryable, userId: string): Promise<number> {
  const [row] = await rowsOf<{ n: number | string }>(db, sql`select ${unreadNotificationCount(userId)} as n`, { prepared: "notice_unread" });
  return Number(row?.n ?? 0);
}

export const NOTIFICATION_PAGE_SIZE = 50;

/**
 * The columns of a notification as the inbox and the channels read it (`n`, its actor `u`/`p`, its
 * card `c`): the offer it is about (its own or its room's) with its cards, and the actor's latest
 * message's first line for a room's message notification unless the reader turned previews off.
 */
const NOTIFICATION_COLUMNS = sql`n.id, n.kind, n.room_id, n.offer_id, n.card_id, c.name as card_name, c.name_en as card_name_en,
  n.detail, n.count, coalesce(p.display_name, u.name) as actor_name, n.updated_at, n.read_at,
  (select json_build_object('giveAny', o.give_any, 'wantAny', o.want_any, 'cards', coalesce((
      select json_agg(json_build_object('side', toc.side, 'name', oc.name, 'nameEn', oc.name_en, 'count', toc.count) order by toc.side, oc.id)
      from trade_offer_cards toc join cards oc on oc.id = toc.card_id where toc.offer_id = o.id), '[]'::json))
    from trade_offers o
    where o.id = coalesce(n.offer_id, (select r.offer_id from chat_rooms r where r.id = n.room_id))) as offer,
  case when n.kind = 'message' and coalesce((select np.message_previews from notification_preferences np where np.user_id = n.user_id), true)
    then (select left(split_part(m.body, chr(10), 1), ${PREVIEW_MAX}) from chat_messages m
          where m.room_id = n.room_id and m.sender_id = n.actor_id and m.kind = 'text' order by m.seq desc limit 1)
  end as preview`;

export type NotificationRow = {
  id: string;
  kind: NotificationKind;
  room_id: string | null;
  offer_id: string | null;
  card_id: string | null;
  card_name: string | null;
  card_name_en: string | null;
  detail: string | null;
  count: number;
  actor_name: string | null;
  updated_at: Date | string;
  read_at: Date | string | null;
  offer: OfferCardsView | null;
  preview: string | null;
};

/** Where a notification takes its reader. */
export function notificationHref(n: { kind: NotificationKind; roomId: string | null; offerId: string | null }): string {
  if (n.roomId) return `/chat/${n.roomId}`;
  if (n.offerId) return `/trades/${n.offerId}`;
  if (n.kind === "friend") return "/friends";
  return "/profile";
}

export type NotificationListOptions = { before?: { at: string; id: string }; limit?: number };

const pageSize = (options: NotificationListOptions) => Math.min(Math.max(options.limit ?? NOTIFICATION_PAGE_SIZE, 1), 100);

/** The newest notifications first (by their last activity), `before` = the last item's cursor. */
export async function listNotifications(
  db: Queryable,
  userId: string,
  options: NotificationListOptions = {},
): Promise<{ items: NotificationView[]; nextCursor: string | null }> {
  return notificationPageOf(await rowsOf<NotificationRow>(db, notificationsQuery(userId, options)), options);
}

/** listNotifications' query (NotificationRow; readTogether can run it with others): one row more than the page, to tell whether another follows. */
export function notificationsQuery(userId: string, options: NotificationListOptions = {}): SQL {
  const before = options.before ? sql`and (n.updated_at, n.id) < (${options.before.at}::timestamptz, ${options.before.id}::uuid)` : sql``;
  return sql`select ${NOTIFICATION_COLUMNS}
        from notifications n
        left join users u on u.id = n.actor_id
        left join profiles p on p.user_id = n.actor_id
        left join cards c on c.id = n.card_id
        where n.user_id = ${userId} ${before} and ${shownInInbox}
        order by n.updated_at desc, n.id desc
        limit ${pageSize(options) + 1}`;
}

/** The page of notificationsQuery's rows (read with the same options). */
export function notificationPageOf(rows: readonly NotificationRow[], options: NotificationListOptions = {}): { items: NotificationView[]; nextCursor: string | null } {
  const limit = pageSize(options);
  const items = rows.slice(0, limit).map(toView);
  const last = items.at(-1);
  return { items, nextCursor: rows.length > limit && last ? `${last.at}_${last.id}` : null };
}

function toView(r: NotificationRow): NotificationView {
  const view: NotificationView = {
    id: r.id,
    kind: r.kind,
    roomId: r.room_id,
    offerId: r.offer_id,
    cardName: r.card_name,
    cardNameEn: r.card_name_en,
    detail: r.detail,
    count: Number(r.count),
    actorName: r.actor_name,
    offer: r.offer,
    preview: r.preview,
    at: new Date(r.updated_at).toISOString(),
    read: r.read_at !== null,
    href: "",
  };
  view.href = notificationHref(view);
  return view;
}

/** The rule, for a stored notification `n` (its actor may be none). */
export const stillAllowed: SQL = sql`(case when n.actor_id is null then ${present(sql`n.user_id`)} else ${allowed(sql`n.user_id`, sql`n.actor_id`)} end)`;

/**
 * One notification as the channels deliver it (features/push): the view plus its owner; null
 * when it is gone or no longer allowed (blocked since, or either account deleted).
 */
export async function getNotificationForDelivery(db: Queryable, id: string): Promise<(NotificationView & { userId: string }) | null> {
  const [row] = await rowsOf<DeliveryRow>(db, notificationForDeliveryQuery(id));
  return row ? notificationForDelivery(row) : null;
}

/** A row of notificationForDeliveryQuery. */
export type DeliveryRow = NotificationRow & { user_id: string };

/**
 * The query of getNotificationForDelivery, for a caller that reads more in the same round trip
 * (the dispatch of a `notify` row joins the owner's preferences to it).
 */
export function notificationForDeliveryQuery(id: string): SQL {
  return sql`select n.user_id, ${NOTIFICATION_COLUMNS}
        from notifications n
        left join users u on u.id = n.actor_id
        left join profiles p on p.user_id = n.actor_id
        left join cards c on c.id = n.card_id
        where n.id = ${id}::uuid and ${stillAllowed}`;
}

export const notificationForDelivery = (row: DeliveryRow): NotificationView & { userId: string } => ({ ...toView(row), userId: row.user_id });

/** Marks one of the user's notifications read; false when it is not theirs (or not there). */
export async function markNotificationRead(db: Db, userId: string, notificationId: string): Promise<boolean> {
  const rows = await rowsOf<{ id: string }>(
    db,
    sql`update notifications set read_at = coalesce(read_at, now())
        where id = ${notificationId}::uuid and user_id = ${userId} returning id`,
  );
  return rows.length > 0;
}

export async function markAllNotificationsRead(db: Db, userId: string): Promise<number> {
  const rows = await rowsOf<{ id: string }>(db, sql`update notifications set read_at = now() where user_id = ${userId} and read_at is null returning id`);
  return rows.length;
}

/**
 * The reader caught up with a room (their cursor reached its last message): the room's
 * notifications are read, wherever they are shown. A message that arrived meanwhile keeps its
 * own notification, because the cursor check reads the room's last sequence now.
 */
export async function markRoomNotificationsRead(db: Queryable, roomId: string, userId: string): Promise<void> {
  await db.execute(
    sql`update notifications n set read_at = now()
        where n.user_id = ${userId} and n.room_id = ${roomId}::uuid and n.read_at is null
          and (select c.last_read_seq from chat_read_cursors c where c.room_id = ${roomId}::uuid and c.user_id = ${userId})
              >= (select r.last_seq from chat_rooms r where r.id = ${roomId}::uuid)`,
  );
}
