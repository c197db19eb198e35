import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  uniqueIndex,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
} from "drizzle-orm/pg-core";

/** A booster pack of the game (docs/product-rules.md §3 Pack). Ids follow docs/product-rules.md set B (`dialga`, `shining-high`). */
export const packs = pgTable("packs", {
  id: text("id").primaryKey(),
  nameJa: text("name_ja").notNull(),
  nameEn: text("name_en").notNull(),
  setCode: text("set_code").notNull(),
  setNameJa: text("set_name_ja").notNull(),
  setNameEn: text("set_name_en").notNull(),
  releaseDate: text("release_date").notNull(),
  sortOrder: integer("sort_order").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Rarities in their display form (◆ … 👑, PROMO). `rank` orders them highest first
 * (docs/product-rules.md §9); `tradeable` is admin-editable because the game changes its trade rules.
 */
export const rarities = pgTable("rarities", {
  code: text("code").primaryKey(),
  sourceCode: text("source_code").notNull(),
  labelJa: text("label_ja").notNull(),
  labelEn: text("label_en").notNull(),
  rank: integer("rank").notNull(),
  tradeable: boolean("tradeable").notNull(),
  // Shinedust (シャインダスト) each side pays to trade a card of this rarity, from the vendored
  // rarities data (catalogue/pokemon-tcg-pocket-database); null where the data names none.
  tradeCost: integer("trade_cost"),
});

/**
 * One card of the game. A card printed in several packs of a set is one row linked to each
 * pack through `card_packs`. `searchText` is the normalised name (kana folded, width folded,
 * lower case) that search matches against.
 */
export const cards = pgTable(
  "cards",
  {
    id: text("id").primaryKey(),
    setCode: text("set_code"),
    number: integer("number"),
    name: text("name").notNull().default(""),
    // Kana reading of the Japanese name (hiragana, without the ex marker); empty while the
    // card's name is English. Search folds it in, so はかせ finds 博士の研究.
    nameReading: text("name_reading").notNull().default(""),
    nameEn: text("name_en").notNull().default(""),
    rarity: text("rarity").notNull().default(""),
    imageUrl: text("image_url").notNull().default(""),
    // The catalogue's image file name (cPK_10_000010_00_FUSHIGIDANE_C.webp): the art's name in
    // the public image set and under CARD_IMAGE_BASE_URL, and the key `cards:images` loads by.
    imageFile: text("image_file"),
    // Storage key prefix of the art `cards:images` re-encoded into the site's upload storage
    // (`<key>-thumb.webp`, `<key>-full.webp`); null until the operator loads the images.
    storedImage: text("stored_image"),
    // Public URL of the Pokémon's own artwork (`npm run cards:art`: the species' official
    // artwork as a small WebP in the upload store), drawn inside the placeholder frame when the
    // card has no picture of its own; null for trainers and species without artwork.
    speciesArt: text("species_art"),
    element: text("element"),
    cardType: text("card_type"),
    // たね / 1進化 / 2進化 as basic | stage1 | stage2; HP, weakness and retreat cost when known.
    stage: text("stage"),
    hp: integer("hp"),
    weakness: text("weakness"),
    retreatCost: integer("retreat_cost"),
    // Each attack's energy cost and printed damage (catalogue-facts.server.ts); null when no
    // source describes the card. Attack names and effects are not stored: English only upstream.
    attacks: jsonb("attacks").$type<{ cost: string[]; damage: number; suffix?: "+" | "x" }[]>(),
    // English species name the Pokémon evolves from, as the facts give it (evolution lines).
    evolvesFrom: text("evolves_from"),
    searchText: text("search_text").notNull().default(""),
    // Where an admin's correction of the Japanese name comes from (a URL or a few words); set
    // means the name is the admin's: no catalogue update or start-up puts the catalogue's back.
    nameNote: text("name_note"),
    // Natural key of a card registered by the admin CSV import: the pack it was imported into
    // plus the row's `id` column (or name + rarity when the file has none). Null for catalogue
    // cards; the unique index makes a re-import update instead of duplicating.
    importPackId: text("import_pack_id"),
    importKey: text("import_key"),
    // The card's place in a player's collection summary (collection_summaries, docs/decisions/049):
    // bit `trade_bit` of each bitmap. Given once, from a sequence, when the card is first stored,
    // and never changed or reused, so a new card only lengthens the bitmaps (its bit is 0 in every
    // summary written before it existed: nobody owned or wanted it).
    tradeBit: serial("trade_bit").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("cards_rarity_idx").on(t.rarity),
    uniqueIndex("cards_trade_bit_idx").on(t.tradeBit),
    // The stored rarity is the one cards trade by (docs/decisions/049): the old spelling `??` of ☆☆
    // (docs/product-rules.md §3) is stored as ☆☆, so every card-match rule compares one value.
    check("cards_rarity_not_old_spelling", sql`${t.rarity} <> '??'`),
    uniqueIndex("cards_import_key_idx").on(t.importPackId, t.importKey),
    index("cards_set_number_idx").on(t.setCode, t.number),
    index("cards_search_text_trgm_idx").using("gin", sql`${t.searchText} gin_trgm_ops`),
  ],
);

export const cardPacks = pgTable(
  "card_packs",
  {
    cardId: text("card_id")
      .notNull()
      .references(() => cards.id, { onDelete: "cascade" }),
    packId: text("pack_id")
      .notNull()
      .references(() => packs.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.cardId, t.packId] }), index("card_packs_pack_idx").on(t.packId)],
);
