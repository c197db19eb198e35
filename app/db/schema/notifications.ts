import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, primaryKey, smallint, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { cards } from "./cards";
import { chatRooms } from "./chat";
import { tradeOffers } from "./trades";
import { users } from "./users";

/**
 * The inbox (docs/architecture.md "Notifications (inbox)"): one row per thing a player should hear about, written in the same
 * transaction as the change that caused it. Account deletion keeps the user row (decision 016), so
 * deleteAccount removes the rows for and about the user itself, and no new row names a deleted account.
 */
export const notifications = pgTable(
  "notifications",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    // message | response | match | step | expiring | want | report | friend
    kind: text("kind").notNull(),
    actorId: text("actor_id").references(() => users.id, { onDelete: "cascade" }),
    roomId: uuid("room_id").references(() => chatRooms.id, { onDelete: "cascade" }),
    offerId: uuid("offer_id").references(() => tradeOffers.id, { onDelete: "cascade" }),
    cardId: text("card_id").references(() => cards.id, { onDelete: "cascade" }),
    // The step key (agree, friend_requested, …), the report outcome (actioned, dismissed), or for
    // `friend` (申請しました) the applicant's friend ID as it was when they applied.
    detail: text("detail"),
    // Messages folded into one unread room notification.
    count: integer("count").notNull().default(1),
    // A room's message notification: the count its channels (open tabs, push, mail) have been told
    // of; below `count` while the instance that bumped it has yet to tell them (decision 048).
    dispatchedCount: integer("dispatched_count").notNull().default(0),
    // Events that happen once per cause (an offer expiring, a match, a want-list hit).
    dedupeKey: text("dedupe_key"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    readAt: timestamp("read_at", { withTimezone: true }),
    // When a mail about it went out (instant or in a digest): a digest does not repeat it.
    mailedAt: timestamp("mailed_at", { withTimezone: true }),
  },
  (t) => [
    check("notifications_kind_check", sql`${t.kind} in ('message', 'response', 'match', 'step', 'expiring', 'want', 'report', 'friend')`),
    // One notification per room until read: the upsert of every new message lands here.
    uniqueIndex("notifications_unread_room_unique").on(t.userId, t.roomId).where(sql`kind = 'message' and read_at is null`),
    uniqueIndex("notifications_user_dedupe_unique").on(t.userId, t.dedupeKey),
    index("notifications_user_updated_idx").on(t.userId, t.updatedAt.desc(), t.id.desc()),
    index("notifications_user_unread_idx").on(t.userId).where(sql`read_at is null`),
    // The digest sweep (every 5 minutes): the last day's notifications still unread and not mailed.
    index("notifications_digest_pending_idx").on(t.createdAt).where(sql`read_at is null and mailed_at is null`),
  ],
);

/** ほしいカード: the cards a player wants; an offer giving one of them notifies the player. */
export const wantedCards = pgTable(
  "wanted_cards",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    cardId: text("card_id")
      .notNull()
      .references(() => cards.id, { onDelete: "cascade" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    // The copies the player's collection held when they wanted the card: once it holds more, the
    // want is met (a card I now own leaves my wants) without deleting the row, so 元に戻す on the
    // collection brings the want back. Decision 046.
    ownedWhenWanted: smallint("owned_when_wanted").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.userId, t.cardId] }), index("wanted_cards_card_idx").on(t.cardId)],
);
