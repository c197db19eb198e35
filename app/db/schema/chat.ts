import {
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uuid,
} from "drizzle-orm/pg-core";
import { cards } from "./cards";
import { tradeOffers } from "./trades";
import { users } from "./users";

/** One room per offer and partner: the constraint, not a read-then-write, keeps it unique. */
export const chatRooms = pgTable(
  "chat_rooms",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    // Restrict, not cascade: a room is the partner's record and a report's evidence, so an offer
    // anyone answered can only be closed, never deleted.
    offerId: uuid("offer_id")
      .notNull()
      .references(() => tradeOffers.id, { onDelete: "restrict" }),
    ownerId: text("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    partnerId: text("partner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    // Highest sequence number handed out in this room.
    lastSeq: integer("last_seq").notNull().default(0),
    lastMessageAt: timestamp("last_message_at", { withTimezone: true }),
    // Trade steps (条件合意 → フレンド申請済み → ゲーム内でトレード申請済み → 取引完了 by both).
    // Agreement and completion need both sides, so each side has its own timestamp.
    ownerAgreedAt: timestamp("owner_agreed_at", { withTimezone: true }),
    partnerAgreedAt: timestamp("partner_agreed_at", { withTimezone: true }),
    friendRequestedAt: timestamp("friend_requested_at", { withTimezone: true }),
    gameTradeRequestedAt: timestamp("game_trade_requested_at", { withTimezone: true }),
    ownerCompletedAt: timestamp("owner_completed_at", { withTimezone: true }),
    partnerCompletedAt: timestamp("partner_completed_at", { withTimezone: true }),
    completedAt: timestamp("completed_at", { withTimezone: true }),
    cancelledAt: timestamp("cancelled_at", { withTimezone: true }),
    // The offer owner's first message or step in the room: the answer the response record
    // (返信率, typical reply time) measures, set once by appendMessage.
    ownerRepliedAt: timestamp("owner_replied_at", { withTimezone: true }),
    // The card the partner named for the offer's 何でも可 side (given by the partner when the offer
    // wants 何でも可, by the owner when it gives 何でも可); null until named. Restrict: a card a
    // room names is never deleted (the catalogue never deletes one).
    chosenCardId: text("chosen_card_id").references(() => cards.id, { onDelete: "restrict" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique("chat_rooms_offer_partner_unique").on(t.offerId, t.partnerId),
    index("chat_rooms_owner_idx").on(t.ownerId),
    index("chat_rooms_owner_created_idx").on(t.ownerId, t.createdAt),
    index("chat_rooms_partner_idx").on(t.partnerId),
  ],
);

export const chatMessages = pgTable(
  "chat_messages",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    roomId: uuid("room_id")
      .notNull()
      .references(() => chatRooms.id, { onDelete: "cascade" }),
    seq: integer("seq").notNull(),
    // kind 'text': the author. kind 'system' (trade steps): the user who pressed the step, body
    // holds the step key and the UI renders the sentence in the reader's language.
    senderId: text("sender_id").references(() => users.id, { onDelete: "set null" }),
    kind: text("kind").notNull().default("text"),
    clientId: text("client_id"),
    body: text("body").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique("chat_messages_room_seq_unique").on(t.roomId, t.seq),
    unique("chat_messages_idempotency_unique").on(t.roomId, t.senderId, t.clientId),
  ],
);

export const chatReadCursors = pgTable(
  "chat_read_cursors",
  {
    roomId: uuid("room_id")
      .notNull()
      .references(() => chatRooms.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    lastReadSeq: integer("last_read_seq").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.roomId, t.userId] })],
);
