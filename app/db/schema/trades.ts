import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uuid,
} from "drizzle-orm/pg-core";
import { cards } from "./cards";
import { users } from "./users";

export const tradeOffers = pgTable(
  "trade_offers",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    ownerId: text("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    // open | negotiating | completed | closed | expired
    status: text("status").notNull().default("open"),
    comment: text("comment").notNull().default(""),
    partnerId: text("partner_id").references(() => users.id, { onDelete: "set null" }),
    // Board order: newest or most recently bumped first.
    bumpedAt: timestamp("bumped_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    completedAt: timestamp("completed_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    // 'g:<cardId>' for each card given and 'w:<cardId>' for each card wanted: kept by triggers on
    // trade_offer_cards (drizzle/0007), searched by マッチ through the GIN index below.
    matchKeys: text("match_keys").array().notNull().default(sql`'{}'::text[]`),
    // 何でも可: the side has no cards named; the partner chooses any card of the same rarity as
    // the other side's cards from their own offers. At most one side.
    giveAny: boolean("give_any").notNull().default(false),
    wantAny: boolean("want_any").notNull().default(false),
  },
  (t) => [
    check(
      "trade_offers_status_check",
      sql`${t.status} in ('open', 'negotiating', 'completed', 'closed', 'expired')`,
    ),
    check("trade_offers_any_one_side_check", sql`not (${t.giveAny} and ${t.wantAny})`),
    index("trade_offers_board_idx").on(t.status, t.bumpedAt.desc(), t.id.desc()),
    index("trade_offers_owner_idx").on(t.ownerId, t.status),
    index("trade_offers_open_match_keys_idx").using("gin", t.matchKeys).where(sql`status = 'open'`),
  ],
);

export const tradeOfferCards = pgTable(
  "trade_offer_cards",
  {
    offerId: uuid("offer_id")
      .notNull()
      .references(() => tradeOffers.id, { onDelete: "cascade" }),
    cardId: text("card_id")
      .notNull()
      .references(() => cards.id, { onDelete: "restrict" }),
    // give (譲) | want (求)
    side: text("side").notNull(),
    count: smallint("count").notNull().default(1),
  },
  (t) => [
    primaryKey({ columns: [t.offerId, t.side, t.cardId] }),
    check("trade_offer_cards_side_check", sql`${t.side} in ('give', 'want')`),
    check("trade_offer_cards_count_check", sql`${t.count} between 1 and 2`),
    // Covers "offers giving/wanting card X" (board filters, マッチ) without touching the heap.
    index("trade_offer_cards_card_side_offer_idx").on(t.cardId, t.side, t.offerId),
  ],
);

/** Reports (通報) of offers, messages or users, handled in the admin area. */
export const reports = pgTable(
  "reports",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    reporterId: text("reporter_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    // offer | message | user
    targetType: text("target_type").notNull(),
    targetId: text("target_id").notNull(),
    reason: text("reason").notNull(),
    // open | dismissed | actioned
    status: text("status").notNull().default("open"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    resolvedAt: timestamp("resolved_at", { withTimezone: true }),
  },
  (t) => [
    index("reports_status_idx").on(t.status, t.createdAt),
    index("reports_target_idx").on(t.targetType, t.targetId),
  ],
);

export const blocks = pgTable(
  "blocks",
  {
    blockerId: text("blocker_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    blockedId: text("blocked_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.blockerId, t.blockedId] }), index("blocks_blocked_idx").on(t.blockedId)],
);

/**
 * Per-user fixed-window counters (posting, responding). An upsert on the primary key bumps the
 * count atomically, so the limit holds across instances and concurrent requests.
 */
export const tradeRateLimits = pgTable(
  "trade_rate_limits",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    // post | respond
    action: text("action").notNull(),
    windowStart: timestamp("window_start", { withTimezone: true }).notNull(),
    count: integer("count").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.userId, t.action, t.windowStart] })],
);
