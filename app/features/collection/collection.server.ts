import { sql } from "drizzle-orm";
import type { Db } from "#app/db/client.server.ts";
import { rowsOf, type Queryable } from "#app/db/sql.server.ts";
import { databaseLimit } from "#app/lib/rate-limit.server.ts";
import { cardFaceOf, cardIndex, compareCards, rememberCatalogueList, type CardIndex, type IndexedCard } from "#app/features/cards/card-index.server.ts";
import { searchTerms } from "#app/features/cards/cards.server.ts";
import { listTradeRarities } from "#app/features/trades/board.server.ts";
import { CollectionError } from "./errors";
import { MAX_CHANGES, WANT_MODES, type CollectionSettingsValues, type WantMode } from "./answers";
import { displayRarity } from "#app/lib/rarity.ts";
import { passesFilter, progressPercent, type CollectionFilter, type OwnedState } from "./collection-filter";

/** A count is 0..99 (docs/decisions/040-collection-storage.md); 0 is no row. */
export const MAX_COUNT = 99;
export { MAX_CHANGES };
/** Count changes (taps, bulks, undos) a player may send per minute; a queue flush sends many taps as one. */
export const CHANGES_PER_MINUTE = 120;
const changeLimit = databaseLimit({ name: "collection", max: CHANGES_PER_MINUTE, window: "minute" });

export type CardCount = { cardId: string; count: number };
/** What a change did: the counts before (元に戻す sends them back) and after. */
export type CountChangeResult = { previous: CardCount[]; counts: CardCount[] };

// ---------------------------------------------------------------------------------------------
// Sets of the catalogue

export type CollectionSet = { code: string; nameJa: string; nameEn: string };

/** Every set that has packs, newest first (kept with the catalogue lists). */
export function listSets(db: Db): Promise<CollectionSet[]> {
  return rememberCatalogueList(db, "collection-sets", async () => {
    const rows = await rowsOf<{ code: string; name_ja: string; name_en: string }>(
      db,
      sql`select set_code as code, min(set_name_ja) as name_ja, min(set_name_en) as name_en from packs group by set_code order by min(sort_order), set_code`,
    );
    return rows.map((r) => ({ code: r.code, nameJa: r.name_ja, nameEn: r.name_en }));
  });
}

/**
 * Every listable print of a set, in binder order (number, then id). A set's cards are the cards
 * of its packs — the same rule the progress query counts by, so a grid and its % agree.
 */
export async function setCards(db: Db, setCode: string): Promise<IndexedCard[]> {
  const index = await cardIndex(db);
  const seen = new Map<string, IndexedCard>();
  for (const pack of index.packs.values()) {
    if (pack.setCode !== setCode) continue;
    for (const card of index.byPack.get(pack.id) ?? []) seen.set(card.id, card);
  }
  return [...seen.values()].sort((a, b) => (a.number ?? 0) - (b.number ?? 0) || compareCards(a, b));
}

// ---------------------------------------------------------------------------------------------
// Counts

/** The player's counts of the given cards (absent: 0). */
export async function countsOf(db: Queryable, userId: string, cardIds: readonly string[]): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  if (!cardIds.length) return counts;
  const rows = await rowsOf<{ card_id: string; count: number }>(
    db,
    sql`select card_id, count from collection_cards where user_id = ${userId} and card_id in (${sql.join(
      cardIds.map((id) => sql`${id}`),
      sql`, `,
    )})`,
  );
  for (const r of rows) counts.set(r.card_id, Number(r.count));
  return counts;
}

/** The player's counts of one set's cards: one range read of their rows joined to the set's packs. */
export async function setCounts(db: Queryable, userId: string, setCode: string): Promise<Map<string, number>> {
  const rows = await rowsOf<{ card_id: string; count: number }>(
    db,
    sql`select cc.card_id, cc.count from collection_cards cc
        where cc.user_id = ${userId}
          and exists (select 1 from card_packs cp join packs p on p.id = cp.pack_id where cp.card_id = cc.card_id and p.set_code = ${setCode})`,
  );
  return new Map(rows.map((r) => [r.card_id, Number(r.count)]));
}

async function countChange(tx: Queryable, userId: string): Promise<void> {
  if (!(await changeLimit.take(userId, tx))) throw new CollectionError("rate_limited");
}

function checkCounts(changes: readonly CardCount[]): CardCount[] {
  for (const c of changes) {
    if (!Number.isInteger(c.count) || c.count < 0 || c.count > MAX_COUNT) throw new CollectionError("count_out_of_range");
  }
  // The last change of a card wins: a queue flush sends taps in the order they were made. Ten
  // taps on one card are one change, so the limit counts cards, not taps.
  const merged = [...new Map(changes.map((c) => [c.cardId, c])).values()];
  if (merged.length > MAX_CHANGES) throw new CollectionError("too_many_changes", { max: MAX_CHANGES });
  return merged;
}

/** Writes counts (0 deletes the row) in the caller's transaction and answers what was there before. */
export async function writeCounts(tx: Queryable, userId: string, changes: readonly CardCount[]): Promise<CountChangeResult> {
  if (!changes.length) return { previous: [], counts: [] };
  const ids = changes.map((c) => c.cardId);
  const known = await rowsOf<{ id: string }>(tx, sql`select id from cards where id in (${sql.join(ids.map((id) => sql`${id}`), sql`, `)})`);
  if (known.length !== new Set(ids).size) throw new CollectionError("card_not_found");
  // Row locks of the player's rows: two tabs changing one card answer each other's previous count.
  const before = await rowsOf<{ card_id: string; count: number }>(
    tx,
    sql`select card_id, count from collection_cards where user_id = ${userId} and card_id in (${sql.join(ids.map((id) => sql`${id}`), sql`, `)}) for update`,
  );
  const previousById = new Map(before.map((r) => [r.card_id, Number(r.count)]));
  const zero = changes.filter((c) => c.count === 0).map((c) => c.cardId);
  const set = changes.filter((c) => c.count > 0);
  if (zero.length) await tx.execute(sql`delete from collection_cards where user_id = ${userId} and card_id in (${sql.join(zero.map((id) => sql`${id}`), sql`, `)})`);
  if (set.length) {
    await tx.execute(sql`insert into collection_cards (user_id, card_id, count, updated_at)
        values ${sql.join(set.map((c) => sql`(${userId}, ${c.cardId}, ${c.count}, now())`), sql`, `)}
        on conflict (user_id, card_id) do update set count = excluded.count, updated_at = excluded.updated_at`);
  }
  return {
    previous: changes.map((c) => ({ cardId: c.cardId, count: previousById.get(c.cardId) ?? 0 })),
    counts: changes.map((c) => ({ cardId: c.cardId, count: c.count })),
  };
}

/** Sets the counts of one or more cards (a tap, a typed number, a queue flush, an undo). All or nothing. */
export async function setCardCounts(db: Db, userId: string, changes: readonly CardCount[]): Promise<CountChangeResult> {
  const unique = checkCounts(changes);
  return db.transaction(async (tx) => {
    await countChange(tx, userId);
    return writeCounts(tx, userId, unique);
  });
}

/** One more or fewer of a card (`delta`); past 0..99 is refused, not clamped, so nothing changes silently. */
export async function adjustCardCount(db: Db, userId: string, cardId: string, delta: number): Promise<CountChangeResult> {
  if (!Number.isInteger(delta) || Math.abs(delta) > MAX_COUNT) throw new CollectionError("count_out_of_range");
  return db.transaction(async (tx) => {
    await countChange(tx, userId);
    const [row] = await rowsOf<{ count: number }>(tx, sql`select count from collection_cards where user_id = ${userId} and card_id = ${cardId} for update`);
    const next = Number(row?.count ?? 0) + delta;
    if (next < 0 || next > MAX_COUNT) throw new CollectionError("count_out_of_range");
    return writeCounts(tx, userId, [{ cardId, count: next }]);
  });
}

export type BulkMode = "one" | "zero";

/**
 * この絞り込みをすべて1枚にする (`one`: every card of the filter the player lacks becomes 1; a card
 * owned already keeps its count) or 0に戻す (`zero`: every card of the filter goes). The answer's
 * `previous` undoes it.
 */
export async function bulkSetCounts(db: Db, userId: string, filter: CollectionFilter, mode: BulkMode): Promise<CountChangeResult> {
  const cards = await setCards(db, filter.set);
  if (!cards.length) throw new CollectionError("unknown_set");
  return db.transaction(async (tx) => {
    await countChange(tx, userId);
    const counts = await setCounts(tx, userId, filter.set);
    const chosen = cards.filter((card) => passesFilter(card, counts.get(card.id) ?? 0, filter));
    const changes = chosen
      .filter((card) => (mode === "one" ? !counts.has(card.id) : counts.has(card.id)))
      .map((card) => ({ cardId: card.id, count: mode === "one" ? 1 : 0 }));
    if (changes.length > MAX_CHANGES) throw new CollectionError("too_many_changes", { max: MAX_CHANGES });
    return writeCounts(tx, userId, changes);
  });
}

// ---------------------------------------------------------------------------------------------
// Progress

export type ProgressRow = { key: string; owned: number; total: number; percent: number };
export type CollectionProgress = { sets: ProgressRow[]; packs: ProgressRow[]; rarities: ProgressRow[] };

/** Every card the player owns, with its count (one narrow read: at most one row per print). */
export async function ownedCounts(db: Queryable, userId: string): Promise<Map<string, number>> {
  const rows = await rowsOf<{ card_id: string; count: number }>(db, sql`select card_id, count from collection_cards where user_id = ${userId}`);
  return new Map(rows.map((r) => [r.card_id, Number(r.count)]));
}

/**
 * The player's counts as a plain object for the offer form's warning (docs/decisions/045), or null
 * when they keep no collection (no row at all): a player without one sees nothing new.
 */
export async function ownedCountsIfKept(db: Queryable, userId: string): Promise<Record<string, number> | null> {
  const owned = await ownedCounts(db, userId);
  return owned.size > 0 ? Object.fromEntries(owned) : null;
}

/**
 * 図鑑の埋まり具合: owned/total per set, and per pack and rarity of `setCode` (docs/decisions/040).
 * The catalogue's side (which prints each set and pack lists) is the in-memory card index, the
 * same one the grid reads, so a grid and its % agree; the player's side is the ids they own.
 */
export function progressOf(index: CardIndex, owned: ReadonlyMap<string, number>, setCode: string | null): CollectionProgress {
  const sets = new Map<string, { owned: number; total: number }>();
  const packs = new Map<string, { owned: number; total: number }>();
  const rarities = new Map<string, { owned: number; total: number }>();
  const bump = (into: Map<string, { owned: number; total: number }>, key: string, has: boolean) => {
    const row = into.get(key) ?? { owned: 0, total: 0 };
    row.total++;
    if (has) row.owned++;
    into.set(key, row);
  };
  for (const card of index.cards) {
    const has = owned.has(card.id);
    const cardSets = new Set<string>();
    for (const packId of card.packIds) {
      const pack = index.packs.get(packId);
      if (!pack?.setCode) continue;
      cardSets.add(pack.setCode);
      if (pack.setCode === setCode) bump(packs, packId, has);
    }
    for (const code of cardSets) bump(sets, code, has);
    if (setCode && cardSets.has(setCode)) bump(rarities, card.rarity, has);
  }
  // Sets and packs in the catalogue's order (newest first, as the pack list), rarities as the grid lists them.
  const packOrder = (id: string) => index.packs.get(id)?.sortOrder ?? Number.MAX_SAFE_INTEGER;
  const setOrder = new Map<string, number>();
  for (const pack of index.packs.values()) if (pack.setCode) setOrder.set(pack.setCode, Math.min(setOrder.get(pack.setCode) ?? Number.MAX_SAFE_INTEGER, pack.sortOrder));
  const rows = (counted: Map<string, { owned: number; total: number }>, order: (key: string) => number = () => 0) =>
    [...counted]
      .sort(([a], [b]) => order(a) - order(b))
      .map(([key, { owned: n, total }]) => ({ key, owned: n, total, percent: progressPercent(n, total) }));
  return { sets: rows(sets, (code) => setOrder.get(code) ?? Number.MAX_SAFE_INTEGER), packs: rows(packs, packOrder), rarities: rows(rarities) };
}

/** The player's progress (see progressOf). */
export async function collectionProgress(db: Db, userId: string, setCode: string | null): Promise<CollectionProgress> {
  const [index, owned] = await Promise.all([cardIndex(db), ownedCounts(db, userId)]);
  return progressOf(index, owned, setCode);
}

// ---------------------------------------------------------------------------------------------
// Settings

/**
 * The collection's choices (docs/decisions/040, 041): privacy switches and the trade settings —
 * copies kept (those above are spare), rarities traded and sets wanted (null: every one).
 */
export type CollectionSettings = CollectionSettingsValues;

export const DEFAULT_COLLECTION_SETTINGS: CollectionSettings = { showProgress: false, useForTrades: false, keepCount: 1, tradeRarities: null, wantMode: "both", wantSets: null };

type SettingsRow = { show_progress: boolean; use_for_trades: boolean; keep_count: number; trade_rarities: string[] | null; want_mode: string; want_sets: string[] | null };

export function settingsOf(row: SettingsRow | undefined): CollectionSettings {
  if (!row) return { ...DEFAULT_COLLECTION_SETTINGS };
  return {
    showProgress: row.show_progress,
    useForTrades: row.use_for_trades,
    keepCount: Number(row.keep_count),
    tradeRarities: row.trade_rarities,
    wantMode: (WANT_MODES as readonly string[]).includes(row.want_mode) ? (row.want_mode as WantMode) : "both",
    wantSets: row.want_sets,
  };
}

export async function getCollectionSettings(db: Queryable, userId: string): Promise<CollectionSettings> {
  const [row] = await rowsOf<SettingsRow>(
    db,
    sql`select show_progress, use_for_trades, keep_count, trade_rarities, want_mode, want_sets from collection_settings where user_id = ${userId}`,
  );
  return settingsOf(row);
}

const textArray = (list: readonly string[] | null) => (list === null ? sql`null` : sql`array[${sql.join(list.map((v) => sql`${v}`), sql`, `)}]::text[]`);

/**
 * Saves the settings; trade settings left out keep their stored value. Rarities and sets are
 * checked against the catalogue (an unknown one is refused, not stored), and listed once.
 */
export async function saveCollectionSettings(
  db: Db,
  userId: string,
  input: Pick<CollectionSettings, "showProgress" | "useForTrades"> & Partial<Omit<CollectionSettings, "showProgress" | "useForTrades">>,
): Promise<CollectionSettings> {
  const index = await cardIndex(db);
  if (input.tradeRarities) {
    const known = new Set(index.cards.map((c) => displayRarity(c.rarity)));
    if (input.tradeRarities.some((r) => !known.has(r))) throw new CollectionError("unknown_rarity");
  }
  if (input.wantSets) {
    const known = new Set([...index.packs.values()].map((p) => p.setCode));
    if (input.wantSets.some((code) => !known.has(code))) throw new CollectionError("unknown_want_set");
  }
  if (input.keepCount !== undefined && (!Number.isInteger(input.keepCount) || input.keepCount < 0 || input.keepCount > MAX_COUNT)) throw new CollectionError("invalid");
  return db.transaction(async (tx) => {
    const [stored] = await rowsOf<SettingsRow>(
      tx,
      sql`select show_progress, use_for_trades, keep_count, trade_rarities, want_mode, want_sets from collection_settings where user_id = ${userId} for update`,
    );
    const before = settingsOf(stored);
    const unique = (list: string[] | null | undefined, fallback: string[] | null) => (list === undefined ? fallback : list === null ? null : [...new Set(list)]);
    const next: CollectionSettings = {
      showProgress: input.showProgress,
      useForTrades: input.useForTrades,
      keepCount: input.keepCount ?? before.keepCount,
      tradeRarities: unique(input.tradeRarities, before.tradeRarities),
      wantMode: input.wantMode ?? before.wantMode,
      wantSets: unique(input.wantSets, before.wantSets),
    };
    await tx.execute(sql`insert into collection_settings (user_id, show_progress, use_for_trades, keep_count, trade_rarities, want_mode, want_sets, updated_at)
        values (${userId}, ${next.showProgress}, ${next.useForTrades}, ${next.keepCount}, ${textArray(next.tradeRarities)}, ${next.wantMode}, ${textArray(next.wantSets)}, now())
        on conflict (user_id) do update set show_progress = excluded.show_progress, use_for_trades = excluded.use_for_trades,
          keep_count = excluded.keep_count, trade_rarities = excluded.trade_rarities, want_mode = excluded.want_mode,
          want_sets = excluded.want_sets, updated_at = excluded.updated_at`);
    return next;
  });
}

/** The public profile's 図鑑の埋まり具合 per set, or null when the player did not choose to show it. */
export async function publicCollectionProgress(db: Db, userId: string): Promise<(ProgressRow & { nameJa: string; nameEn: string })[] | null> {
  if (!(await getCollectionSettings(db, userId)).showProgress) return null;
  const [{ sets }, names] = await Promise.all([collectionProgress(db, userId, null), listSets(db)]);
  const byCode = new Map(sets.map((s) => [s.key, s]));
  return names.flatMap((n) => {
    const row = byCode.get(n.code);
    return row ? [{ ...row, nameJa: n.nameJa, nameEn: n.nameEn }] : [];
  });
}

// ---------------------------------------------------------------------------------------------
// CSV

// ---------------------------------------------------------------------------------------------
// The /collection page

export const COLLECTION_PAGE_SIZE = 60;

export type CollectionCard = Pick<IndexedCard, "id" | "name" | "nameEn" | "rarity" | "imageUrl" | "imageFile" | "storedImage" | "speciesArt" | "element" | "cardType" | "stage" | "hp" | "setCode" | "number"> & { count: number };

export type CollectionPageInput = { set?: string | null; pack?: string | null; rarity?: string | null; type?: string | null; owned?: OwnedState | null; q?: string | null; page?: number };

/**
 * The page model of /collection: the sets, the chosen set's packs, one page of its prints with
 * the player's counts (the set's cards from the in-memory catalogue, the counts in one query),
 * the progress (one query) and the settings.
 */
export async function collectionPage(db: Db, userId: string, input: CollectionPageInput) {
  const sets = await listSets(db);
  const set = sets.find((s) => s.code === input.set) ?? sets[0];
  if (!set) throw new CollectionError("unknown_set");
  const index = await cardIndex(db);
  const packs = [...index.packs.values()].filter((p) => p.setCode === set.code).sort((a, b) => a.sortOrder - b.sortOrder);
  const pack = packs.some((p) => p.id === input.pack) ? input.pack! : null;
  const filter: CollectionFilter = { set: set.code, pack, rarity: input.rarity || null, type: input.type || null, owned: input.owned ?? null, terms: searchTerms(input.q) };
  const [cards, owned, settings, tradeRarities] = await Promise.all([setCards(db, set.code), ownedCounts(db, userId), getCollectionSettings(db, userId), listTradeRarities(db)]);
  const counts = new Map(cards.flatMap((card) => (owned.has(card.id) ? [[card.id, owned.get(card.id)!] as const] : [])));
  const progress = progressOf(index, owned, set.code);
  const matching = cards.filter((card) => passesFilter(card, counts.get(card.id) ?? 0, filter));
  const pages = Math.max(1, Math.ceil(matching.length / COLLECTION_PAGE_SIZE));
  const page = Math.min(Math.max(1, input.page ?? 1), pages);
  const shown = matching.slice((page - 1) * COLLECTION_PAGE_SIZE, page * COLLECTION_PAGE_SIZE);
  return {
    sets,
    set,
    packs: packs.map((p) => ({ id: p.id, nameJa: p.nameJa, nameEn: p.nameEn })),
    filter: { set: set.code, pack, rarity: filter.rarity ?? "", type: filter.type ?? "", owned: filter.owned ?? "", q: (input.q ?? "").slice(0, 100) },
    rarities: [...new Set(cards.map((c) => c.rarity))],
    cards: shown.map(
      (c): CollectionCard => ({
        ...cardFaceOf(c),
        count: counts.get(c.id) ?? 0,
      }),
    ),
    total: matching.length,
    missingInFilter: matching.filter((c) => !counts.has(c.id)).length,
    ownedInFilter: matching.filter((c) => counts.has(c.id)).length,
    page,
    pages,
    pageSize: COLLECTION_PAGE_SIZE,
    progress,
    settings,
    /** The rarities the trade rules allow now: the choices of トレードに出すレアリティ. */
    tradeRarities,
  };
}
