import { randomUUID } from "node:crypto";
import { isUniqueViolation } from "#app/db/sql.server.ts";
import { and, asc, desc, eq, inArray, sql, type SQL } from "drizzle-orm";
import type { Db } from "#app/db/client.server.ts";
import { deckCards, decks } from "#app/db/schema/decks.ts";
import { createCache, scopeOf } from "#app/lib/cache.server.ts";
import { publishChange, onChange } from "#app/lib/change-bus.server.ts";
import { isIsoInstant } from "#app/lib/tokyo-time.ts";
import { forgetContentRefs, recordContentRefs, refreshContentDependents, type RenderOptions } from "#app/features/content/content-refs.server.ts";
import { renderStoredContent, sanitizeContentHtml, type CardArtOptions } from "#app/features/content/refs.server.ts";
import type { UploadStore } from "#app/features/uploads/storage.server.ts";
import { deckCardViews, exportDeckText, keyCardsOf, checkDeckCardIds, type DeckCardRow } from "./deck-cards.server";
import type { DeckInput } from "./decks.schema";
import { DeckError } from "./errors";
import { checkDeck, deckTotal, isDeckId } from "./rules";
import type { AdminDeckRow, DeckDetail, DeckEditData, DeckOption, DeckSummary } from "./types";

export { importDeckText, deckCardViews } from "./deck-cards.server";
export { DeckError } from "./errors";
export { ENERGY_TYPES } from "./energy";

/**
 * Public deck reads are kept for DECK_CACHE_TTL_MS or until a deck write clears them: a write here
 * clears them at once and, through the change bus (lib/change-bus.server.ts, Redis with
 * REDIS_URL), on every other instance too, which also empties the signed-out page cache
 * (docs/decisions/013).
 */
export const DECK_CACHE_TTL_MS = 30_000;
const deckPages = createCache<DeckDetail | null>({ name: "deck-pages", max: 500, ttlMs: DECK_CACHE_TTL_MS });
const deckLists = createCache<unknown>({ name: "deck-lists", max: 300, ttlMs: DECK_CACHE_TTL_MS });

function forgetDecks(db: Db): void {
  deckPages.clear(`${scopeOf(db)}:`);
  deckLists.clear(`${scopeOf(db)}:`);
  publishChange("content");
}

// A deck or article written on another instance: what this one kept may show it as it was.
onChange("content", () => {
  deckPages.clear();
  deckLists.clear();
});

const SUMMARY_COLUMNS = {
  id: decks.id,
  slug: decks.slug,
  name: decks.name,
  tier: decks.tier,
  category: decks.category,
  energyTypes: decks.energyTypes,
  eyecatchUrl: decks.eyecatchUrl,
  featuredOrder: decks.featuredOrder,
  createdAt: decks.createdAt,
  updatedAt: decks.updatedAt,
};
type SummaryRow = {
  id: string;
  slug: string;
  name: string;
  tier: number;
  category: string;
  energyTypes: string[];
  eyecatchUrl: string | null;
  featuredOrder: number | null;
  createdAt: Date;
  updatedAt: Date;
};

async function cardRowsOf(db: Db, deckIds: string[]): Promise<Map<string, DeckCardRow[]>> {
  const byDeck = new Map<string, DeckCardRow[]>();
  if (!deckIds.length) return byDeck;
  const rows = await db
    .select({ deckId: deckCards.deckId, cardId: deckCards.cardId, packId: deckCards.packId, count: deckCards.count })
    .from(deckCards)
    .where(inArray(deckCards.deckId, deckIds))
    .orderBy(asc(deckCards.deckId), asc(deckCards.position));
  for (const { deckId, ...row } of rows) {
    const list = byDeck.get(deckId);
    if (list) list.push(row);
    else byDeck.set(deckId, [row]);
  }
  return byDeck;
}

async function summaries(db: Db, rows: SummaryRow[]): Promise<DeckSummary[]> {
  const cardsByDeck = await cardRowsOf(db, rows.map((r) => r.id));
  return Promise.all(
    rows.map(async (row) => ({
      id: row.id,
      slug: row.slug,
      name: row.name,
      tier: row.tier,
      category: row.category,
      energyTypes: row.energyTypes,
      eyecatchUrl: row.eyecatchUrl,
      featured: row.featuredOrder !== null,
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
      keyCards: keyCardsOf(await deckCardViews(db, cardsByDeck.get(row.id) ?? [])),
    })),
  );
}

export type DeckListFilters = {
  tier?: number | null;
  energy?: string | null;
  category?: string | null;
  /** Only these decks (a player's collection filter): the page is that player's, so it is not kept. */
  deckIds?: readonly string[] | null;
};
// 12 cards a page: two screens on a phone, and each SSR render stays small.
export const DECK_PAGE_SIZE = 12;
const NOT_FEATURED = 2_147_483_647;
const featuredRank = sql<number>`coalesce(${decks.featuredOrder}, ${sql.raw(String(NOT_FEATURED))})`;

type Cursor = { f: number; c: string; i: string };
function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify(cursor)).toString("base64url");
}
function decodeCursor(value: string): Cursor {
  try {
    const cursor = JSON.parse(Buffer.from(value, "base64url").toString("utf8")) as Cursor;
    if (Number.isInteger(cursor.f) && typeof cursor.c === "string" && isIsoInstant(cursor.c) && isDeckId(cursor.i)) return cursor;
  } catch {
    // fall through
  }
  throw new DeckError("invalid_cursor");
}

/**
 * docs/product-rules.md §7 "public decks": pinned recipes first (their order), then newest first; filtered by
 * tier, energy type and category; one page of DECK_PAGE_SIZE with a keyset cursor.
 */
export async function listPublicDecks(db: Db, filters: DeckListFilters = {}, cursor: string | null = null, limit = DECK_PAGE_SIZE): Promise<{ decks: DeckSummary[]; nextCursor: string | null }> {
  const after = cursor ? decodeCursor(cursor) : null;
  const key = `${scopeOf(db)}:list:${filters.tier ?? ""}:${filters.energy ?? ""}:${filters.category ?? ""}:${cursor ?? ""}:${limit}`;
  const deckIds = filters.deckIds;
  if (deckIds && !deckIds.length) return { decks: [], nextCursor: null };
  const load = async () => {
    const where: SQL[] = [eq(decks.isPublic, true)];
    if (deckIds) where.push(inArray(decks.id, [...deckIds]));
    if (filters.tier) where.push(eq(decks.tier, filters.tier));
    if (filters.energy) where.push(sql`${decks.energyTypes} @> array[${filters.energy}]::text[]`);
    if (filters.category) where.push(eq(decks.category, filters.category));
    if (after) {
      where.push(
        sql`(${featuredRank} > ${after.f} or (${featuredRank} = ${after.f} and (${decks.createdAt}, ${decks.id}) < (${after.c}::timestamptz, ${after.i}::uuid)))`,
      );
    }
    const rows = await db
      .select(SUMMARY_COLUMNS)
      .from(decks)
      .where(and(...where))
      .orderBy(asc(featuredRank), desc(decks.createdAt), desc(decks.id))
      .limit(limit + 1);
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return {
      decks: await summaries(db, page),
      nextCursor: rows.length > limit && last ? encodeCursor({ f: last.featuredOrder ?? NOT_FEATURED, c: last.createdAt.toISOString(), i: last.id }) : null,
    };
  };
  return deckIds ? load() : (deckLists.remember(key, load) as Promise<{ decks: DeckSummary[]; nextCursor: string | null }>);
}

/**
 * Every public deck's cards and counts by deck id: the same for everyone, kept with the deck
 * lists (a deck write clears it). The collection filter of /deck-recipes reads it.
 */
export function publicDeckNeeds(db: Db): Promise<Map<string, { cardId: string; count: number }[]>> {
  return deckLists.remember(`${scopeOf(db)}:needs`, async () => {
    const rows = await db
      .select({ deckId: deckCards.deckId, cardId: deckCards.cardId, count: deckCards.count })
      .from(deckCards)
      .innerJoin(decks, eq(decks.id, deckCards.deckId))
      .where(eq(decks.isPublic, true));
    const byDeck = new Map<string, { cardId: string; count: number }[]>();
    for (const { deckId, ...need } of rows) {
      const list = byDeck.get(deckId);
      if (list) list.push(need);
      else byDeck.set(deckId, [need]);
    }
    return byDeck;
  }) as Promise<Map<string, { cardId: string; count: number }[]>>;
}

/** The home page's デッキレシピ section: tier 1 first, then newest. */
export function listHomeDecks(db: Db, limit = 6): Promise<DeckSummary[]> {
  return deckLists.remember(`${scopeOf(db)}:home:${limit}`, async () => {
    const rows = await db.select(SUMMARY_COLUMNS).from(decks).where(eq(decks.isPublic, true)).orderBy(asc(decks.tier), desc(decks.createdAt), desc(decks.id)).limit(limit);
    return summaries(db, rows);
  }) as Promise<DeckSummary[]>;
}

/** docs/product-rules.md §2 card page: the public decks that use a card, tier 1 first, then newest. */
export function listDecksWithCard(db: Db, cardId: string, limit = 6): Promise<DeckSummary[]> {
  return deckLists.remember(`${scopeOf(db)}:card:${cardId}:${limit}`, async () => {
    const rows = await db
      .select(SUMMARY_COLUMNS)
      .from(decks)
      .where(and(eq(decks.isPublic, true), sql`exists (select 1 from ${deckCards} where ${deckCards.deckId} = ${decks.id} and ${deckCards.cardId} = ${cardId})`))
      .orderBy(asc(decks.tier), desc(decks.createdAt), desc(decks.id))
      .limit(limit);
    return summaries(db, rows);
  }) as Promise<DeckSummary[]>;
}

async function loadDeck(db: Db, slugOrId: string, includePrivate: boolean): Promise<DeckDetail | null> {
  const by = isDeckId(slugOrId) ? eq(decks.id, slugOrId.toLowerCase()) : eq(decks.slug, slugOrId);
  const [row] = await db
    .select({ ...SUMMARY_COLUMNS, isPublic: decks.isPublic, contentHtml: decks.contentHtml, keywords: decks.keywords, metaDescription: decks.metaDescription, relatedDeckIds: decks.relatedDeckIds })
    .from(decks)
    .where(includePrivate ? by : and(by, eq(decks.isPublic, true)));
  if (!row) return null;
  const rows = (await cardRowsOf(db, [row.id])).get(row.id) ?? [];
  const cards = await deckCardViews(db, rows);
  const relatedRows = row.relatedDeckIds.length
    ? await db.select(SUMMARY_COLUMNS).from(decks).where(and(inArray(decks.id, row.relatedDeckIds), eq(decks.isPublic, true), sql`${decks.id} <> ${row.id}`))
    : [];
  const order = new Map(row.relatedDeckIds.map((id, i) => [id, i]));
  relatedRows.sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
  const [summary] = await summaries(db, [row]);
  return {
    ...summary,
    isPublic: row.isPublic,
    excerpt: excerptOf(row.contentHtml),
    // Stored HTML is sanitised again on its way out (docs/architecture.md "Content: formatter, uploads, site settings and the SEO head"), once per cache fill.
    contentHtml: sanitizeContentHtml(row.contentHtml),
    keywords: row.keywords,
    metaDescription: row.metaDescription,
    cards,
    legality: checkDeck(cards, row.energyTypes),
    related: await summaries(db, relatedRows),
    exportText: exportDeckText(cards, "ja"),
    exportTextEn: exportDeckText(cards, "en"),
  };
}

const ENTITIES: Record<string, string> = { "&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&#39;": "'", "&#x27;": "'", "&nbsp;": " " };

/** The first 120 characters of rendered HTML as text, cut at a character, never inside one. */
function excerptOf(html: string): string {
  const text = html
    .replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/gi, " ")
    .replace(/<[^>]*>/g, " ")
    .replace(/&(?:amp|lt|gt|quot|#39|#x27|nbsp);/g, (entity) => ENTITIES[entity] ?? entity)
    .replace(/\s+/g, " ")
    .trim();
  const chars = [...text];
  return chars.length > 120 ? `${chars.slice(0, 119).join("")}…` : text;
}

/**
 * docs/product-rules.md §2 deck detail: a public deck by slug or id, with its cards, legality, related decks
 * and export text; null when unknown or not public. `includePrivate` is the admins' preview.
 */
export function getDeck(db: Db, slugOrId: string, options: { includePrivate?: boolean } = {}): Promise<DeckDetail | null> {
  if (!slugOrId || slugOrId.length > 100) return Promise.resolve(null);
  if (options.includePrivate) return loadDeck(db, slugOrId, true);
  return deckPages.remember(`${scopeOf(db)}:${slugOrId}`, () => loadDeck(db, slugOrId, false));
}

/** docs/product-rules.md §2 admin デッキ管理: every deck, newest first, with the sum of its counts. */
export async function listAdminDecks(db: Db): Promise<AdminDeckRow[]> {
  const rows = await db
    .select({ id: decks.id, slug: decks.slug, name: decks.name, isPublic: decks.isPublic, createdAt: decks.createdAt, updatedAt: decks.updatedAt, eyecatchUrl: decks.eyecatchUrl, total: sql<number>`coalesce((select sum(${deckCards.count}) from ${deckCards} where ${deckCards.deckId} = ${decks.id}), 0)::int` })
    .from(decks)
    .orderBy(desc(decks.createdAt), desc(decks.id));
  return rows.map((r) => ({ ...r, total: Number(r.total), createdAt: r.createdAt.toISOString(), updatedAt: r.updatedAt.toISOString() }));
}

/** docs/product-rules.md §7 "all decks (also for the related-deck list)". */
export async function listDeckOptions(db: Db): Promise<DeckOption[]> {
  const rows = await db
    .select({ id: decks.id, name: decks.name, slug: decks.slug, isPublic: decks.isPublic, eyecatchUrl: decks.eyecatchUrl, updatedAt: decks.updatedAt })
    .from(decks)
    .orderBy(desc(decks.createdAt), desc(decks.id));
  return rows.map((r) => ({ ...r, updatedAt: r.updatedAt.toISOString() }));
}

/** A deck as the editor loads it; null when unknown. */
export async function getDeckForEdit(db: Db, id: string): Promise<DeckEditData | null> {
  if (!isDeckId(id)) return null;
  const [row] = await db.select().from(decks).where(eq(decks.id, id.toLowerCase()));
  if (!row) return null;
  const cards = await deckCardViews(db, (await cardRowsOf(db, [row.id])).get(row.id) ?? []);
  return {
    id: row.id,
    name: row.name,
    tier: row.tier,
    category: row.category,
    description: row.description,
    energyTypes: row.energyTypes,
    eyecatchUrl: row.eyecatchUrl,
    slug: row.slug,
    isPublic: row.isPublic,
    keywords: row.keywords,
    metaDescription: row.metaDescription,
    relatedDeckIds: row.relatedDeckIds,
    featuredOrder: row.featuredOrder,
    revision: row.revision,
    cards,
  };
}

/**
 * A deck the game would refuse (このままでは構築できません) is saved public only when the request
 * says the admin confirmed it (`publishIllegal`, sent by the editor's dialog): otherwise 422
 * `illegal_deck`, for the editor and the API alike. A private deck is saved whatever its cards.
 */
export async function assertPublishable(db: Db, input: Pick<DeckInput, "isPublic" | "publishIllegal" | "cards" | "energyTypes">): Promise<void> {
  if (!input.isPublic || input.publishIllegal) return;
  const legality = checkDeck(await deckCardViews(db, input.cards), input.energyTypes);
  if (legality.status === "illegal") throw new DeckError("illegal_deck");
}

async function prepare(db: Db, store: UploadStore, input: DeckInput, deckId: string, art: CardArtOptions) {
  // A slug shaped like an id would be read as one: the id URL would never reach the slug.
  if (input.slug && isDeckId(input.slug)) throw new DeckError("slug_invalid", {}, { slug: "errSlugInvalid" });
  await checkDeckCardIds(db, input.cards.map((c) => c.cardId));
  await assertPublishable(db, input);
  const related = input.relatedDeckIds.filter((id) => id !== deckId);
  return {
    name: input.name,
    tier: input.tier,
    category: input.category,
    description: input.description,
    // The same card art as articles and the editors' preview (CARD_IMAGE_BASE_URL).
    contentHtml: await renderStoredContent(db, store, input.description, art),
    energyTypes: input.energyTypes,
    eyecatchUrl: input.eyecatchUrl,
    isPublic: input.isPublic,
    keywords: input.keywords,
    metaDescription: input.metaDescription,
    relatedDeckIds: related,
    featuredOrder: input.featuredOrder,
  };
}

/**
 * The related decks must exist when the save commits: checked inside its transaction, with the
 * rows held (FOR SHARE) so a delete running at the same time waits for this save and then drops
 * the id from its related list, instead of leaving a dangling one.
 */
async function assertRelatedExist(tx: Pick<Db, "select">, related: string[]): Promise<void> {
  if (!related.length) return;
  const found = await tx.select({ id: decks.id }).from(decks).where(inArray(decks.id, related)).for("share");
  if (found.length !== related.length) throw new DeckError("related_unknown", {}, { relatedDeckIds: "errRelatedUnknown" });
}

function cardValues(deckId: string, input: DeckInput) {
  return input.cards.map((card, position) => ({ deckId, cardId: card.cardId, packId: card.packId, count: card.count, position }));
}

/** docs/product-rules.md §4 deck save without an id: creates it (slug generated when empty). */
export async function createDeck(db: Db, store: UploadStore, userId: string | null, input: DeckInput, art: CardArtOptions = {}): Promise<{ id: string; slug: string }> {
  const id = randomUUID();
  const values = await prepare(db, store, input, id, art);
  const slug = input.slug ?? `deck-${id.slice(0, 8)}`;
  try {
    await db.transaction(async (tx) => {
      await assertRelatedExist(tx, values.relatedDeckIds);
      await tx.insert(decks).values({ id, slug, ...values, createdBy: userId });
      if (input.cards.length) await tx.insert(deckCards).values(cardValues(id, input));
      await recordContentRefs(tx, "deck", id, input.description);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new DeckError("slug_taken", {}, { slug: "errSlugTaken" });
    throw error;
  }
  forgetDecks(db);
  // Texts that named this slug before it existed now show the deck.
  if (values.isPublic) await refreshContentDependents(db, { store, ...art }, "deck", [slug, id]);
  return { id, slug };
}

/**
 * docs/product-rules.md §4 deck save with an id: replaces its fields and its card list in one transaction. The
 * save names the revision its editor loaded; when someone saved since, it is refused with
 * `conflict` and nothing is written (the editor keeps what the admin typed).
 */
export async function updateDeck(db: Db, store: UploadStore, id: string, input: DeckInput, revision: number, art: CardArtOptions = {}): Promise<{ id: string; slug: string; revision: number }> {
  if (!isDeckId(id)) throw new DeckError("not_found");
  const deckId = id.toLowerCase();
  // A stale editor hears 409 first, before any rule about what it sent (an illegal deck's 422):
  // what it sent was written over an older deck. The update below checks again, for a save that lands in between.
  const [current] = await db.select({ revision: decks.revision }).from(decks).where(eq(decks.id, deckId));
  if (!current) throw new DeckError("not_found");
  if (current.revision !== revision) throw new DeckError("conflict");
  const values = await prepare(db, store, input, deckId, art);
  const slug = input.slug ?? `deck-${deckId.slice(0, 8)}`;
  let saved: { revision: number; before: ShownAs } | undefined;
  try {
    saved = await db.transaction(async (tx) => {
      await assertRelatedExist(tx, values.relatedDeckIds);
      const [before] = await tx.select(SHOWN_AS).from(decks).where(eq(decks.id, deckId));
      const [updated] = await tx
        .update(decks)
        .set({ ...values, slug, updatedAt: new Date(), revision: sql`${decks.revision} + 1` })
        .where(and(eq(decks.id, deckId), eq(decks.revision, revision)))
        .returning({ revision: decks.revision });
      if (!updated) {
        const [exists] = await tx.select({ id: decks.id }).from(decks).where(eq(decks.id, deckId));
        throw new DeckError(exists ? "conflict" : "not_found");
      }
      await tx.delete(deckCards).where(eq(deckCards.deckId, deckId));
      if (input.cards.length) await tx.insert(deckCards).values(cardValues(deckId, input));
      await recordContentRefs(tx, "deck", deckId, input.description);
      return { revision: updated.revision, before };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new DeckError("slug_taken", {}, { slug: "errSlugTaken" });
    throw error;
  }
  forgetDecks(db);
  const { before } = saved;
  const after: ShownAs = { slug, name: values.name, isPublic: values.isPublic, eyecatchUrl: values.eyecatchUrl, updatedAt: before.updatedAt };
  // Other texts show this deck's name, picture and link (or デッキが見つかりません): when what they
  // show changed, they are rendered again.
  if ((before.isPublic || after.isPublic) && (before.isPublic !== after.isPublic || before.slug !== after.slug || before.name !== after.name || before.eyecatchUrl !== after.eyecatchUrl)) {
    await refreshContentDependents(db, { store, ...art }, "deck", [before.slug, slug, deckId]);
  }
  return { id: deckId, slug, revision: saved.revision };
}

/** docs/product-rules.md §7 "delete decks/{id}" (its cards go with it); other decks' related lists drop it. */
export async function deleteDeck(db: Db, id: string, render: RenderOptions): Promise<void> {
  if (!isDeckId(id)) throw new DeckError("not_found");
  const deckId = id.toLowerCase();
  const removed = await db.transaction(async (tx) => {
    const [row] = await tx.delete(decks).where(eq(decks.id, deckId)).returning({ slug: decks.slug, isPublic: decks.isPublic });
    if (!row) throw new DeckError("not_found");
    await tx.update(decks).set({ relatedDeckIds: sql`array_remove(${decks.relatedDeckIds}, ${deckId}::uuid)` }).where(sql`${deckId}::uuid = any(${decks.relatedDeckIds})`);
    await forgetContentRefs(tx, "deck", deckId);
    return row;
  });
  forgetDecks(db);
  if (removed.isPublic) await refreshContentDependents(db, render, "deck", [removed.slug, deckId]);
}

// What other texts show of a deck (its related block).
const SHOWN_AS = { slug: decks.slug, name: decks.name, isPublic: decks.isPublic, eyecatchUrl: decks.eyecatchUrl, updatedAt: decks.updatedAt };
type ShownAs = { slug: string; name: string; isPublic: boolean; eyecatchUrl: string | null; updatedAt: Date };

/** Sum of a deck's counts (docs/product-rules.md §2 "total card count"). */
export { deckTotal };
