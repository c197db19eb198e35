import { sql } from "drizzle-orm";
import { boolean, check, pgTable, primaryKey, smallint, text, timestamp } from "drizzle-orm/pg-core";
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

/** A player's collection choices; no row means both off (the collection is private by default). */
export const collectionSettings = pgTable("collection_settings", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  // プロフィールに図鑑の埋まり具合を表示する
  showProgress: boolean("show_progress").notNull().default(false),
  // トレードにコレクションを使う (stored now; the trade finder reads it later)
  useForTrades: boolean("use_for_trades").notNull().default(false),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});
