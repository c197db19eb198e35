import { asc, eq, sql } from "drizzle-orm";
import { rowsOf } from "#app/db/sql.server.ts";
import type { Db } from "#app/db/client.server.ts";
import { packs, rarities, tradeRuleChanges } from "#app/db/schema/index.ts";
import { publishChange } from "#app/lib/change-bus.server.ts";
import { createCache, scopeOf } from "#app/lib/cache.server.ts";
import { tokyoShortDateTime } from "#app/lib/tokyo-time.ts";
import { displayRarity, RARITIES } from "#app/lib/rarity.ts";
import { cardIndex } from "#app/features/cards/card-index.server.ts";
import { cardTradeabilityAt, type Tradeability, type TradeRuleChange, type TradeRules, type TradeRulesPageData } from "./trade-rules";

export type { Tradeability };
import { TradeError } from "./errors";
import { TradeRuleError } from "./trade-rules-errors";
import type { TradeRuleChangeInput } from "./trade-rules.schema";

/**
 * The trade rules from the database (docs/decisions/018), kept per database for RULES_TTL_MS and
 * dropped at once by a change on this instance; other instances follow within the TTL. A change
 * also moves the board version, so マッチ is recomputed under the new rules.
 */
const RULES_TTL_MS = 30_000;
const rulesCache = createCache<TradeRules>({ name: "trade-rules", max: 20, ttlMs: RULES_TTL_MS });

export function loadTradeRules(db: Db): Promise<TradeRules> {
  return rulesCache.remember(scopeOf(db), async () => {
    const [rarityRows, changeRows] = await Promise.all([
      db.select({ code: rarities.code, tradeable: rarities.tradeable }).from(rarities).orderBy(asc(rarities.code)),
      db
        .select({
          id: tradeRuleChanges.id,
          scope: tradeRuleChanges.scope,
          target: tradeRuleChanges.target,
          tradeable: tradeRuleChanges.tradeable,
          effectiveAt: tradeRuleChanges.effectiveAt,
          note: tradeRuleChanges.note,
        })
        .from(tradeRuleChanges)
        .orderBy(asc(tradeRuleChanges.effectiveAt), asc(tradeRuleChanges.createdAt)),
    ]);
    return {
      rarityDefaults: Object.fromEntries(rarityRows.map((r) => [r.code, r.tradeable])),
      changes: changeRows.map(changeOf),
    };
  });
}

/**
 * The public question other features ask (want-list alerts, the offer gate, マッチ): may each of
 * these cards be traded at `at` (now by default)? Unknown card ids are left out of the answer.
 */
export async function cardTradeability(db: Db, cardIds: readonly string[], at: Date = new Date()): Promise<Map<string, Tradeability>> {
  const [rules, index] = await Promise.all([loadTradeRules(db), cardIndex(db)]);
  const result = new Map<string, Tradeability>();
  for (const id of cardIds) {
    const card = index.byId.get(id);
    if (card) result.set(id, cardTradeabilityAt(rules, card, at));
  }
  return result;
}

/**
 * The gate: throws when a card is closed at `at`, naming the date it reopens if one is set. It
 * reads the cards and their rarity's default from the database itself (not the 30 s caches): a
 * post is rare, and must follow a catalogue change at once.
 */
export async function assertCardsTradeable(db: Db, cards: readonly { cardId: string; name: string }[], at: Date = new Date()): Promise<void> {
  if (cards.length === 0) return;
  const [rules, rows] = await Promise.all([
    loadTradeRules(db),
    rowsOf<{ id: string; rarity: string; tradeable: boolean; pack_ids: string[] }>(
      db,
      sql`select c.id, c.rarity, coalesce(r.tradeable, false) as tradeable,
            coalesce(array_agg(cp.pack_id) filter (where cp.pack_id is not null), '{}') as pack_ids
          from cards c left join rarities r on r.code = c.rarity left join card_packs cp on cp.card_id = c.id
          where c.id in (${sql.join(cards.map((c) => sql`${c.cardId}`), sql`, `)})
          group by c.id, c.rarity, r.tradeable`,
    ),
  ]);
  const byId = new Map(rows.map((row) => [row.id, row]));
  const rarityDefaults = { ...rules.rarityDefaults, ...Object.fromEntries(rows.map((row) => [displayRarity(row.rarity), row.tradeable])) };
  for (const card of cards) {
    const row = byId.get(card.cardId);
    if (!row) continue;
    const state = cardTradeabilityAt({ ...rules, rarityDefaults }, { rarity: row.rarity, packIds: row.pack_ids }, at);
    if (state.tradeable) continue;
    if (state.until) throw new TradeRuleError("not_tradeable_until", { name: card.name, date: tokyoShortDateTime(state.until, "ja") });
    throw new TradeError("not_tradeable", { name: card.name });
  }
}

/** An administrator's change (and its reopening for "not tradeable until"), in one transaction. */
export async function addTradeRuleChange(db: Db, input: TradeRuleChangeInput, adminId: string): Promise<TradeRuleChange[]> {
  const written = await db.transaction((tx) => writeTradeRuleChanges(tx as unknown as Db, input, adminId));
  tradeRulesChanged(db);
  return written;
}

/**
 * Writes a change (and its reopening) on a transaction the caller holds — the admin's カタログ更新
 * writes a new set's rule with its cards. The caller calls tradeRulesChanged after the commit.
 */
export async function writeTradeRuleChanges(tx: Db, input: TradeRuleChangeInput, adminId: string): Promise<TradeRuleChange[]> {
  const known =
    input.scope === "rarity"
      ? await tx.select({ id: rarities.code }).from(rarities).where(eq(rarities.code, input.target)).limit(1)
      : await tx.select({ id: packs.id }).from(packs).where(eq(packs.id, input.target)).limit(1);
  if (known.length === 0) throw new TradeRuleError("unknown_target");
  const rows = [
    { scope: input.scope, target: input.target, tradeable: input.tradeable, effectiveAt: new Date(input.effectiveAt), note: input.note, createdBy: adminId },
    ...(input.until ? [{ scope: input.scope, target: input.target, tradeable: true, effectiveAt: new Date(input.until), note: input.note, createdBy: adminId }] : []),
  ];
  const inserted = await tx.insert(tradeRuleChanges).values(rows).returning();
  return inserted.map(changeOf);
}

/** A stored rule change as the rules read it. */
function changeOf(r: { id: string; scope: string; target: string; tradeable: boolean; effectiveAt: Date | string; note: string }): TradeRuleChange {
  return {
    id: r.id,
    scope: r.scope === "pack" ? "pack" : "rarity",
    target: r.target,
    tradeable: r.tradeable,
    effectiveAt: new Date(r.effectiveAt).toISOString(),
    note: r.note,
  };
}

/** After a committed rule change: this instance reads the rules again and マッチ is recomputed. */
export function tradeRulesChanged(db: Db): void {
  rulesCache.delete(scopeOf(db));
  publishChange("board");
}

/**
 * Offers holding a card the rules close at `at`: they stay where they are and are marked (a rule
 * change never deletes an offer), and マッチ leaves them out.
 */
export async function offersClosedByRules(
  db: Db,
  offers: readonly { id: string; give: readonly { cardId: string }[]; want: readonly { cardId: string }[] }[],
  at: Date = new Date(),
): Promise<Set<string>> {
  if (offers.length === 0) return new Set();
  const ids = [...new Set(offers.flatMap((o) => [...o.give, ...o.want].map((c) => c.cardId)))];
  const states = await cardTradeability(db, ids, at);
  return new Set(offers.filter((o) => [...o.give, ...o.want].some((c) => states.get(c.cardId)?.tradeable === false)).map((o) => o.id));
}


export async function tradeRulesPageData(db: Db): Promise<TradeRulesPageData> {
  const [rules, index] = await Promise.all([loadTradeRules(db), cardIndex(db)]);
  const packList = [...index.packs.values()].sort((a, b) => a.sortOrder - b.sortOrder);
  return {
    rules,
    now: new Date().toISOString(),
    packs: packList.map((p) => ({ id: p.id, name: p.nameJa, nameEn: p.nameEn })),
    rarityCodes: RARITIES.map((r) => r.code).filter((code) => code in rules.rarityDefaults),
  };
}
