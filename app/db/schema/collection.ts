import { sql } from "drizzle-orm";
import { boolean, check, customType, pgTable, primaryKey, smallint, text, timestamp } from "drizzle-orm/pg-core";
import { cards } from "./cards";
import { users } from "./users";

/**
 * マイコレクション: how many copies of each print a player owns (docs/decisions/040-collection-storage.md).
 * Sparse: only owned prints have a row (count 1..99); setting a count to 0 deletes the row, so
 * 20,000 players × ~1,500 owned prints is 30 million narrow rows, and a player's rows are one
 * range of the primary key.
 */
export const collectionCards = pgTable(
  "collection_cards",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    cardId: text("card_id")
      .notNull()
      .references(() => cards.id, { onDelete: "cascade" }),
    count: smallint("count").notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.cardId] }), check("collection_cards_count_range", sql`${t.count} between 1 and 99`)],
);

/**
 * A player's collection choices; no row means both off (the collection is private by default)
 * and the trade defaults below (docs/decisions/041-trade-candidates.md).
 */
export const collectionSettings = pgTable(
  "collection_settings",
  {
    userId: text("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    // プロフィールに図鑑の埋まり具合を表示する
    showProgress: boolean("show_progress").notNull().default(false),
    // トレードにコレクションを使う: the opt-in of トレード候補, both as the one looking and the one found
    useForTrades: boolean("use_for_trades").notNull().default(false),
    // 各カードを何枚残すか: copies above this are spare
    keepCount: smallint("keep_count").notNull().default(1),
    // Rarities traded (display codes); null: every rarity the trade rules allow
    tradeRarities: text("trade_rarities").array(),
    // What I want: missing cards of want_sets, the ほしいカード list, or both
    wantMode: text("want_mode").notNull().default("both"),
    // Sets whose missing cards I want; null: every set
    wantSets: text("want_sets").array(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("collection_settings_keep_count_range", sql`${t.keepCount} between 0 and 99`),
    check("collection_settings_want_mode_check", sql`${t.wantMode} in ('missing', 'wants', 'both')`),
  ],
);

const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => "bytea" });

/**
 * What トレード候補 needs of a player's collection, one short row per player
 * (docs/decisions/049-collection-summaries.md): bitmaps over the cards' `trade_bit` — `owned`
 * (any copy), `spare` (more copies than `keep_count`) and `wanted` (an open ほしいカード want,
 * docs/decisions/046, of a card not spare). Derived, always: database triggers on
 * collection_cards, wanted_cards and collection_settings rewrite the bits of every card a
 * statement touched (or the player's whole row when their keep count changes), whoever wrote
 * them. No row: no bit set. Bits past a bitmap's end are 0.
 */
export const collectionSummaries = pgTable("collection_summaries", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  owned: bytea("owned").notNull().default(sql`'\\x'::bytea`),
  spare: bytea("spare").notNull().default(sql`'\\x'::bytea`),
  wanted: bytea("wanted").notNull().default(sql`'\\x'::bytea`),
});
