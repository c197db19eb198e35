import { eq } from "drizzle-orm";
import type { Db } from "#app/db/client.server.ts";
import { packs } from "#app/db/schema/index.ts";
import { isTrainerCard } from "#app/lib/card-face.ts";
import { cardIndex, rememberCatalogueList, type IndexedCard } from "./card-index.server";
import { speciesEvolvesFrom, speciesEvolvesInto, speciesOf } from "./game-facts.server";
import type { CardListItem } from "./types";

/** One step of an evolution line: the species' Japanese name and the card a link opens. */
export type EvolutionStep = { name: string; nameEn: string; cardId: string; current: boolean };

/** A print of the same card name in a set (another rarity, another set). */
export type CardPrint = CardListItem & { packName: string; packNameEn: string };

export type CardFamily = {
  /** Basic → Stage 1 → Stage 2, this card's step marked; empty when the catalogue does not know. */
  evolution: EvolutionStep[][];
  prints: CardPrint[];
  setNameJa: string | null;
  setNameEn: string | null;
};

const MAX_PRINTS = 24;

/**
 * The card that stands for a species in a link: a print of the same set first (ゼニガメ A1 053
 * links カメックス A1, not a promo), then any set but a promo one, then the most common print
 * (lowest rarity), oldest id first.
 */
function speciesCard(cards: IndexedCard[], species: string, setCode: string | null): IndexedCard | null {
  const order = (c: IndexedCard) => [c.setCode === setCode ? 0 : 1, c.setCode?.startsWith("PROMO") ? 1 : 0, c.rank] as const;
  let best: IndexedCard | null = null;
  for (const card of cards) {
    if (card.nameEn !== species || isTrainerCard(card)) continue;
    if (!best) {
      best = card;
      continue;
    }
    const [a, b] = [order(card), order(best)];
    const cmp = a[0] - b[0] || a[1] - b[1] || a[2] - b[2] || card.id.localeCompare(best.id);
    if (cmp < 0) best = card;
  }
  return best;
}

/**
 * A card page's family: the evolution line (from the catalogue's "evolves from" of the species)
 * and every other print of the same name, newest set first. Read from the in-memory card index.
 */
export function cardFamily(db: Db, card: Pick<CardListItem, "id" | "name" | "nameEn" | "cardType" | "setCode">): Promise<CardFamily> {
  // The same for every visitor and changed with the catalogue only (a walk over every card and a
  // query for the set's names): kept with the catalogue lists, which every catalogue write clears.
  return rememberCatalogueList(db, `family:${card.id}`, () => loadCardFamily(db, card));
}

async function loadCardFamily(db: Db, card: Pick<CardListItem, "id" | "name" | "nameEn" | "cardType" | "setCode">): Promise<CardFamily> {
  const index = await cardIndex(db);
  const [set] = card.setCode ? await db.select({ ja: packs.setNameJa, en: packs.setNameEn }).from(packs).where(eq(packs.setCode, card.setCode)).limit(1) : [];
  const packOf = (c: IndexedCard) => index.packs.get(c.packIds[0] ?? "");
  const prints = index.cards
    .filter((c) => c.id !== card.id && c.name === card.name && c.packIds.length)
    .sort((a, b) => (packOf(a)?.sortOrder ?? 0) - (packOf(b)?.sortOrder ?? 0) || b.rank - a.rank || a.id.localeCompare(b.id))
    .slice(0, MAX_PRINTS)
    .map((c) => {
      const { rank: _rank, tradeable: _tradeable, searchText: _searchText, packIds: _packIds, ...item } = c;
      return { ...item, packName: packOf(c)?.nameJa ?? "", packNameEn: packOf(c)?.nameEn ?? "" };
    });
  return { evolution: isTrainerCard(card) ? [] : evolutionOf(index.cards, card), prints, setNameJa: set?.ja ?? null, setNameEn: set?.en ?? null };
}

function evolutionOf(cards: IndexedCard[], card: Pick<CardListItem, "id" | "name" | "nameEn" | "setCode">): EvolutionStep[][] {
  const species = speciesOf(card.nameEn);
  const back: string[] = [];
  for (let from = speciesEvolvesFrom(species); from && back.length < 2; from = speciesEvolvesFrom(from)) back.unshift(from);
  const forward: string[][] = [];
  for (let step = [species]; forward.length < 2 - back.length; ) {
    step = [...new Set(step.flatMap((s) => speciesEvolvesInto(s)))];
    if (!step.length) break;
    forward.push(step);
  }
  if (!back.length && !forward.length) return [];
  const stepOf = (name: string, current: boolean): EvolutionStep | null => {
    const found = current ? null : speciesCard(cards, name, card.setCode);
    if (current) return { name: card.name.replace(/ ?ex$/, ""), nameEn: name, cardId: card.id, current: true };
    return found ? { name: found.name, nameEn: name, cardId: found.id, current: false } : null;
  };
  const line = [...back.map((s) => [s]), [species], ...forward];
  return line
    .map((names, i) => names.map((n) => stepOf(n, i === back.length)).filter((s): s is EvolutionStep => s !== null))
    .filter((steps) => steps.length > 0);
}
