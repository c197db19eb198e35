import { inArray, isNotNull, sql } from "drizzle-orm";
import type { Db } from "#app/db/client.server.ts";
import { cardPacks, cards, packs, rarities } from "#app/db/schema/index.ts";
import { RARITIES } from "#app/lib/rarity.ts";
import { invalidateCardIndex } from "./card-index.server";
import type { Catalogue, CatalogueCardRow, CataloguePack } from "./catalogue.server";

/**
 * What applying a catalogue would change, counted before anything is written. A card is never
 * removed by an update: offers, wants, decks and article blocks point at card ids, which stay.
 * Cards the database has and the source lacks are counted as `kept`.
 */
export type CataloguePlan = {
  newSets: { code: string; nameJa: string; nameEn: string; releaseDate: string; cards: number }[];
  newPacks: number;
  changedPacks: number;
  newCards: number;
  renamed: { id: string; from: string; to: string }[];
  /** Cards whose name an admin corrected and the catalogue names otherwise: the admin's name stays. */
  correctionsKept: { id: string; name: string; catalogueName: string; note: string }[];
  rarityChanged: { id: string; from: string; to: string }[];
  /** Cards whose type, HP, weakness, retreat, attacks, image or search text changed. */
  otherChanged: number;
  newLinks: number;
  tradeCostsChanged: number;
  removed: 0;
  kept: number;
  /** False when applying would write nothing. */
  changes: boolean;
};

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
type Reader = Db | Tx;

// jsonb hands keys back in its own order: compare attacks by content.
const canonical = (value: unknown): string =>
  JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === "object" && !Array.isArray(v) ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b))) : v,
  );

const FACT_COLUMNS = ["element", "cardType", "stage", "hp", "weakness", "retreatCost", "evolvesFrom"] as const;
const PACK_COLUMNS = ["nameJa", "nameEn", "setCode", "setNameJa", "setNameEn", "releaseDate", "sortOrder"] as const;

/**
 * `update` (cards:update, the admin's catalogue update) brings every card to the catalogue except
 * names an admin corrected; `add` (start-up, db:seed) only adds: new packs, cards, links, and facts
 * a card lacks. It never renames, so start-up reads a few narrow columns and overwrites nothing.
 */
export type CatalogueMode = "update" | "add";

type Diff = { plan: CataloguePlan; cardsToWrite: CatalogueCardRow[]; packsToWrite: CataloguePack[]; links: { cardId: string; packId: string }[]; costs: [string, number][] };

const changedPacks = (catalogue: Catalogue, storedPacks: Map<string, typeof packs.$inferSelect>) =>
  catalogue.packs.filter((p) => {
    const stored = storedPacks.get(p.id);
    return !stored || PACK_COLUMNS.some((k) => stored[k] !== p[k]);
  });

async function diff(db: Reader, catalogue: Catalogue, mode: CatalogueMode): Promise<Diff> {
  const storedPacks = new Map((await db.select().from(packs)).map((p) => [p.id, p]));
  const storedSets = new Set([...storedPacks.values()].map((p) => p.setCode));
  if (mode === "add") return addDiff(db, catalogue, storedPacks, storedSets);
  const storedCards = new Map(
    (await db.select().from(cards).where(isNotNull(cards.setCode))).map((c) => [c.id, c]),
  );
  const storedLinks = new Set((await db.select({ cardId: cardPacks.cardId, packId: cardPacks.packId }).from(cardPacks)).map((l) => `${l.cardId}\t${l.packId}`));
  const storedCosts = new Map((await db.select({ code: rarities.code, tradeCost: rarities.tradeCost }).from(rarities)).map((r) => [r.code, r.tradeCost]));

  const packsToWrite = changedPacks(catalogue, storedPacks);
  const newSetCodes = [...new Set(catalogue.packs.map((p) => p.setCode))].filter((code) => !storedSets.has(code));
  const plan: CataloguePlan = {
    newSets: newSetCodes.map((code) => {
      const pack = catalogue.packs.find((p) => p.setCode === code)!;
      return { code, nameJa: pack.setNameJa, nameEn: pack.setNameEn, releaseDate: pack.releaseDate, cards: catalogue.cards.filter((c) => c.setCode === code).length };
    }),
    newPacks: packsToWrite.filter((p) => !storedPacks.has(p.id)).length,
    changedPacks: packsToWrite.filter((p) => storedPacks.has(p.id)).length,
    newCards: 0,
    renamed: [],
    correctionsKept: [],
    rarityChanged: [],
    otherChanged: 0,
    newLinks: 0,
    tradeCostsChanged: 0,
    removed: 0,
    kept: 0,
    changes: false,
  };
  const cardsToWrite: CatalogueCardRow[] = [];
  const sourceIds = new Set<string>();
  const links: Diff["links"] = [];
  for (const card of catalogue.cards) {
    const id = String(card.id);
    sourceIds.add(id);
    for (const packId of card.packIds) if (!storedLinks.has(`${id}\t${packId}`)) links.push({ cardId: id, packId });
    const stored = storedCards.get(id);
    if (!stored) {
      plan.newCards++;
      cardsToWrite.push(card);
      continue;
    }
    let changed = false;
    const corrected = stored.nameNote != null;
    if (corrected && stored.name !== card.name) plan.correctionsKept.push({ id, name: stored.name, catalogueName: String(card.name), note: stored.nameNote! });
    if (!corrected && (stored.name !== card.name || stored.nameEn !== card.nameEn)) {
      plan.renamed.push({ id, from: stored.name, to: String(card.name) });
      changed = true;
    }
    if (stored.rarity !== card.rarity) {
      plan.rarityChanged.push({ id, from: stored.rarity, to: String(card.rarity) });
      changed = true;
    }
    const other =
      (corrected ? stored.nameEn !== card.nameEn : stored.nameReading !== card.nameReading || stored.searchText !== card.searchText) ||
      stored.imageFile !== (card.imageFile ?? null) ||
      (catalogue.hasFacts && (FACT_COLUMNS.some((k) => (stored[k] ?? null) !== (card[k] ?? null)) || canonical(stored.attacks ?? null) !== canonical(card.attacks ?? null)));
    if (other && !changed) plan.otherChanged++;
    if (changed || other) cardsToWrite.push(card);
  }
  plan.kept = [...storedCards.keys()].filter((id) => !sourceIds.has(id)).length;
  plan.newLinks = links.length;
  const costs = [...catalogue.tradeCosts].filter(([code, cost]) => storedCosts.has(code) && storedCosts.get(code) !== cost);
  plan.tradeCostsChanged = costs.length + [...catalogue.tradeCosts.keys()].filter((code) => !storedCosts.has(code)).length;
  const missingRarities = RARITIES.some((r) => !storedCosts.has(r.code));
  plan.changes = missingRarities || packsToWrite.length > 0 || cardsToWrite.length > 0 || links.length > 0 || plan.tradeCostsChanged > 0;
  return { plan, cardsToWrite, packsToWrite, links, costs: [...catalogue.tradeCosts] };
}

const emptyPlan = (): CataloguePlan => ({
  newSets: [],
  newPacks: 0,
  changedPacks: 0,
  newCards: 0,
  renamed: [],
  correctionsKept: [],
  rarityChanged: [],
  otherChanged: 0,
  newLinks: 0,
  tradeCostsChanged: 0,
  removed: 0,
  kept: 0,
  changes: false,
});

// Start-up only asks which fact columns of a card are empty: one small integer per card, bit i
// for FACT_COLUMNS[i] and the last bit for attacks, rather than the columns themselves.
const EMPTY_FACTS = sql.raw(
  [...["element", "card_type", "stage", "hp", "weakness", "retreat_cost", "evolves_from"], "attacks"].map((column, i) => `((${column} is null)::int << ${i})`).join(" | "),
);
const ATTACKS_BIT = 1 << FACT_COLUMNS.length;
// A card still named in English (its name is its English name and no admin corrected it): start-up
// gives it the catalogue's Japanese name, which is adding a name it lacks, not renaming.
const UNTRANSLATED = sql`((${cards.name} = ${cards.nameEn} and ${cards.nameNote} is null)::int << ${sql.raw(String(FACT_COLUMNS.length + 1))})`;
const UNTRANSLATED_BIT = 1 << (FACT_COLUMNS.length + 1);
const UNTRANSLATED_ROW = `"cards"."name" = "cards"."name_en" and "cards"."name_note" is null`;

/**
 * What start-up adds: only rows that are missing, fact columns that are empty, and a Japanese name
 * for a card still named in English; a Japanese or corrected name stays.
 */
async function addDiff(db: Reader, catalogue: Catalogue, storedPacks: Map<string, typeof packs.$inferSelect>, storedSets: Set<string | null>): Promise<Diff> {
  const plan = emptyPlan();
  const storedCards = new Map((await db.select({ id: cards.id, empty: sql<number>`${EMPTY_FACTS} | ${UNTRANSLATED}` }).from(cards).where(isNotNull(cards.setCode))).map((c) => [c.id, c.empty]));
  const storedLinks = new Set((await db.select({ cardId: cardPacks.cardId, packId: cardPacks.packId }).from(cardPacks)).map((l) => `${l.cardId}\t${l.packId}`));
  const storedCosts = new Map((await db.select({ code: rarities.code, tradeCost: rarities.tradeCost }).from(rarities)).map((r) => [r.code, r.tradeCost]));
  // Packs are few and never edited by hand: their names and order follow the catalogue.
  const packsToWrite = changedPacks(catalogue, storedPacks);
  plan.newPacks = packsToWrite.filter((p) => !storedPacks.has(p.id)).length;
  plan.changedPacks = packsToWrite.length - plan.newPacks;
  plan.newSets = [...new Set(packsToWrite.map((p) => p.setCode))]
    .filter((code) => !storedSets.has(code))
    .map((code) => {
      const pack = packsToWrite.find((p) => p.setCode === code)!;
      return { code: String(code), nameJa: pack.setNameJa, nameEn: pack.setNameEn, releaseDate: pack.releaseDate, cards: catalogue.cards.filter((c) => c.setCode === code).length };
    });
  const cardsToWrite: CatalogueCardRow[] = [];
  const links: Diff["links"] = [];
  for (const card of catalogue.cards) {
    const id = String(card.id);
    for (const packId of card.packIds) if (!storedLinks.has(`${id}\t${packId}`)) links.push({ cardId: id, packId });
    const empty = storedCards.get(id);
    if (empty === undefined) {
      plan.newCards++;
      cardsToWrite.push(card);
    } else if (empty & UNTRANSLATED_BIT && card.name !== card.nameEn) {
      plan.renamed.push({ id, from: String(card.nameEn), to: String(card.name) });
      cardsToWrite.push(card);
    } else if (catalogue.hasFacts && (FACT_COLUMNS.some((k, i) => empty & (1 << i) && card[k] != null) || (empty & ATTACKS_BIT && card.attacks != null))) {
      plan.otherChanged++;
      cardsToWrite.push(card);
    }
  }
  plan.newLinks = links.length;
  const costs = [...catalogue.tradeCosts].filter(([code]) => storedCosts.has(code) && storedCosts.get(code) == null);
  const missingRarities = RARITIES.some((r) => !storedCosts.has(r.code));
  plan.tradeCostsChanged = costs.length + (missingRarities ? catalogue.tradeCosts.size : 0);
  plan.changes = missingRarities || packsToWrite.length > 0 || cardsToWrite.length > 0 || links.length > 0 || costs.length > 0;
  return { plan, cardsToWrite, packsToWrite, links, costs };
}

/**
 * What the admin's カタログ更新 adds around the one applier: `check` sees the plan inside the
 * transaction before anything is written (and may refuse it), `afterWrite` writes more in the same
 * transaction (a new set's trade rule), so the whole update stays all or nothing.
 */
export type ApplyHooks = {
  check?: (plan: CataloguePlan) => void | Promise<void>;
  afterWrite?: (tx: Db, plan: CataloguePlan) => Promise<void>;
};

/** What applying the catalogue would change; writes nothing. */
export async function planCatalogueUpdate(db: Db, catalogue: Catalogue, mode: CatalogueMode = "update"): Promise<CataloguePlan> {
  return (await diff(db, catalogue, mode)).plan;
}

/**
 * Applies a catalogue in one transaction (all or nothing) and answers what it changed; applying
 * the same catalogue again changes nothing. Only new and changed rows are written.
 */
export async function applyCatalogueUpdate(db: Db, catalogue: Catalogue, mode: CatalogueMode = "update", hooks: ApplyHooks = {}): Promise<CataloguePlan> {
  const plan = await db.transaction(async (tx) => {
    const { plan, cardsToWrite, packsToWrite, links, costs } = await diff(tx, catalogue, mode);
    // Inside the transaction: the plan checked is the plan written (the admin's preview digest).
    await hooks.check?.(plan);
    if (!plan.changes) return plan;
    // Admin-edited trade flags survive an update: rarities are only inserted, their costs set.
    await tx.insert(rarities).values([...RARITIES].map((r) => ({ ...r, tradeCost: catalogue.tradeCosts.get(r.code) ?? null }))).onConflictDoNothing();
    for (const [code, cost] of costs) await tx.update(rarities).set({ tradeCost: cost }).where(inArray(rarities.code, [code]));
    if (packsToWrite.length) {
      await tx
        .insert(packs)
        .values(packsToWrite)
        .onConflictDoUpdate({
          target: packs.id,
          set: {
            nameJa: sql`excluded.name_ja`,
            nameEn: sql`excluded.name_en`,
            setCode: sql`excluded.set_code`,
            setNameJa: sql`excluded.set_name_ja`,
            setNameEn: sql`excluded.set_name_en`,
            releaseDate: sql`excluded.release_date`,
            sortOrder: sql`excluded.sort_order`,
          },
        });
    }
    // Adding fills a fact only where the card has none; an update also keeps a corrected name.
    const keep = (column: string) => sql.raw(`coalesce("cards"."${column}", excluded.${column})`);
    const untranslated = (column: string) => sql.raw(`case when ${UNTRANSLATED_ROW} then excluded.${column} else "cards"."${column}" end`);
    const unlessCorrected = (column: string) => sql.raw(`case when "cards"."name_note" is null then excluded.${column} else "cards"."${column}" end`);
    const facts = !catalogue.hasFacts
      ? {}
      : mode === "add"
        ? {
            element: keep("element"),
            cardType: keep("card_type"),
            stage: keep("stage"),
            hp: keep("hp"),
            weakness: keep("weakness"),
            retreatCost: keep("retreat_cost"),
            attacks: keep("attacks"),
            evolvesFrom: keep("evolves_from"),
          }
        : {
          element: sql`excluded.element`,
          cardType: sql`excluded.card_type`,
          stage: sql`excluded.stage`,
          hp: sql`excluded.hp`,
          weakness: sql`excluded.weakness`,
          retreatCost: sql`excluded.retreat_cost`,
          attacks: sql`excluded.attacks`,
          evolvesFrom: sql`excluded.evolves_from`,
        };
    for (let i = 0; i < cardsToWrite.length; i += 500) {
      const batch = cardsToWrite.slice(i, i + 500);
      await tx
        .insert(cards)
        .values(batch.map(({ packIds: _packIds, ...row }) => row))
        .onConflictDoUpdate({
          target: cards.id,
          set:
            mode === "add"
              ? {
                  ...facts,
                  name: untranslated("name"),
                  nameReading: untranslated("name_reading"),
                  searchText: untranslated("search_text"),
                }
              : {
                  name: unlessCorrected("name"),
                  nameReading: unlessCorrected("name_reading"),
                  nameEn: sql`excluded.name_en`,
                  rarity: sql`excluded.rarity`,
                  imageFile: sql`excluded.image_file`,
                  searchText: unlessCorrected("search_text"),
                  ...facts,
                },
        });
    }
    for (let i = 0; i < links.length; i += 1000) await tx.insert(cardPacks).values(links.slice(i, i + 1000)).onConflictDoNothing();
    await hooks.afterWrite?.(tx as unknown as Db, plan);
    return plan;
  });
  if (plan.changes) invalidateCardIndex(db);
  return plan;
}

/** The plan as `cards:update` prints it and the admin preview words it in English. */
export function formatCataloguePlan(plan: CataloguePlan): string {
  const lines = [
    `${plan.newSets.length} new sets, ${plan.newCards} new cards, ${plan.renamed.length} renamed, ${plan.rarityChanged.length} changed rarity, ${plan.removed} removed`,
    `${plan.otherChanged} cards with other changes (facts, image, reading), ${plan.newPacks} new packs, ${plan.changedPacks} packs changed, ${plan.newLinks} new pack links, ${plan.tradeCostsChanged} trade costs changed`,
  ];
  for (const set of plan.newSets) lines.push(`  new set ${set.code} ${set.nameJa} / ${set.nameEn} (${set.releaseDate}, ${set.cards} cards)`);
  for (const r of plan.renamed.slice(0, 20)) lines.push(`  renamed ${r.id}: ${r.from} → ${r.to}`);
  if (plan.renamed.length > 20) lines.push(`  … ${plan.renamed.length - 20} more renamed`);
  for (const r of plan.correctionsKept) lines.push(`  kept admin correction ${r.id}: ${r.name} (catalogue: ${r.catalogueName}; source: ${r.note})`);
  for (const r of plan.rarityChanged.slice(0, 20)) lines.push(`  rarity ${r.id}: ${r.from} → ${r.to}`);
  if (plan.kept) lines.push(`${plan.kept} cards in the database are not in this source: kept (never deleted)`);
  if (!plan.changes) lines.push("No change.");
  return lines.join("\n");
}
