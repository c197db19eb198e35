import { sql } from "drizzle-orm";
import { boolean, check, index, integer, pgTable, primaryKey, smallint, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { cards, packs } from "./cards";
import { users } from "./users";

/**
 * A deck recipe (docs/product-rules.md §3 Deck; docs/architecture.md "Data"). `description` is the source text as typed and
 * `contentHtml` the formatter's output (docs/product-rules.md's `content`). `featuredOrder` replaces docs/product-rules.md's
 * fixed "recipes list" document: decks with an order are pinned first, lowest first.
 */
export const decks = pgTable(
  "decks",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    slug: text("slug").notNull(),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    contentHtml: text("content_html").notNull().default(""),
    tier: smallint("tier").notNull(),
    category: text("category").notNull(),
    energyTypes: text("energy_types").array().notNull().default(sql`'{}'::text[]`),
    eyecatchUrl: text("eyecatch_url"),
    isPublic: boolean("is_public").notNull().default(false),
    keywords: text("keywords").notNull().default(""),
    metaDescription: text("meta_description").notNull().default(""),
    relatedDeckIds: uuid("related_deck_ids").array().notNull().default(sql`'{}'::uuid[]`),
    featuredOrder: integer("featured_order"),
    // Grows on every write: a save names the revision its editor loaded (as articles do).
    revision: integer("revision").notNull().default(1),
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("decks_slug_idx").on(t.slug),
    // `Case-x` and `case-x` would be two decks to the database but one to a reader.
    uniqueIndex("decks_slug_lower_idx").on(sql`lower(${t.slug})`),
    check("decks_tier_check", sql`${t.tier} between 1 and 4`),
    check("decks_category_check", sql`${t.category} in ('news', 'maintenance', 'event', 'deck-recipe')`),
    check("decks_slug_check", sql`${t.slug} ~ '^[A-Za-z0-9_-]{1,100}$'`),
    // The public list: pinned first (by order), then newest.
    index("decks_public_list_idx").on(t.isPublic, sql`coalesce(${t.featuredOrder}, 2147483647)`, t.createdAt.desc(), t.id.desc()),
    index("decks_created_idx").on(t.createdAt.desc(), t.id.desc()),
  ],
);

/** The cards of a deck in the editor's order (`position` 0 is the top of the card list). */
export const deckCards = pgTable(
  "deck_cards",
  {
    deckId: uuid("deck_id")
      .notNull()
      .references(() => decks.id, { onDelete: "cascade" }),
    cardId: text("card_id")
      .notNull()
      .references(() => cards.id, { onDelete: "restrict" }),
    // The pack the card was picked from (docs/product-rules.md §3 deck card packId); null when unknown.
    packId: text("pack_id").references(() => packs.id, { onDelete: "set null" }),
    count: smallint("count").notNull(),
    position: smallint("position").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.deckId, t.cardId] }),
    check("deck_cards_count_check", sql`${t.count} between 1 and 4`),
    index("deck_cards_card_idx").on(t.cardId),
  ],
);
