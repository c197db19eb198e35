import type { Db } from "#app/db/client.server.ts";
import { cardFaceOf, cardIndex, playFactsOf, type CardIndex, type IndexedCard } from "#app/features/cards/card-index.server.ts";
import { cardGameFacts } from "#app/features/cards/game-facts.server.ts";
import { cardTradeability } from "#app/features/trades/trade-rules.server.ts";
import { catalogueSetCode, deckToText, parseDeckText, type DeckTextFormat } from "./deck-text";
import { DeckError } from "./errors";
import { LIST_MAX_COPIES } from "./rules";
import type { DeckCardView, DeckImportResult, KeyCard } from "./types";

export type DeckCardRow = { cardId: string; packId: string | null; count: number };

/**
 * `tradeable`: what the trade rules say now (docs/decisions/018, 033: a rarity opened or closed, a
 * pack closed), not the rarity's default flag — the deck page's trade links take only these cards.
 */
function view(index: CardIndex, card: IndexedCard, packId: string | null, count: number, tradeable: boolean): DeckCardView {
  const shownPack = packId && card.packIds.includes(packId) ? packId : (card.packIds[0] ?? null);
  const pack = shownPack ? index.packs.get(shownPack) : undefined;
  const facts = cardGameFacts(card.id);
  return {
    ...cardFaceOf(card),
    cardId: card.id,
    ...playFactsOf(index, card.id),
    packId: shownPack,
    packName: pack?.nameJa ?? "",
    packNameEn: pack?.nameEn ?? "",
    count,
    kind: facts?.kind ?? null,
    basic: facts ? facts.basic : null,
    fossil: facts?.fossil ?? false,
    tradeable,
  };
}

/** The deck's rows as cards with names, packs, pictures and the catalogue's game facts (row order kept). */
export async function deckCardViews(db: Db, rows: readonly DeckCardRow[]): Promise<DeckCardView[]> {
  const [index, rules] = await Promise.all([cardIndex(db), cardTradeability(db, [...new Set(rows.map((row) => row.cardId))])]);
  const views: DeckCardView[] = [];
  for (const row of rows) {
    const card = index.byId.get(row.cardId);
    if (card) views.push(view(index, card, row.packId, row.count, rules.get(card.id)?.tradeable ?? false));
  }
  return views;
}

/** Every card id must be a listable card of the catalogue; the first unknown one is refused. */
export async function checkDeckCardIds(db: Db, cardIds: readonly string[]): Promise<void> {
  const index = await cardIndex(db);
  const unknown = cardIds.find((id) => !index.byId.has(id));
  if (unknown) throw new DeckError("unknown_card", { cardId: unknown }, { cards: "errUnknownCard" });
}

/** The cards a placeholder eyecatch shows: the first Pokémon of the list (else the first cards). */
export function keyCardsOf(cards: readonly DeckCardView[], n = 3): KeyCard[] {
  const pokemon = cards.filter((c) => c.kind === "pokemon");
  const chosen = (pokemon.length ? [...pokemon, ...cards.filter((c) => c.kind !== "pokemon")] : [...cards]).slice(0, n);
  return chosen.map((c) => ({ cardId: c.cardId, name: c.name, imageUrl: c.imageUrl, rarity: c.rarity }));
}

/** The deck list as text: Japanese section names, or the English ones tools read (deck-text.ts). */
export function exportDeckText(cards: readonly DeckCardView[], format: DeckTextFormat = "ja"): string {
  return deckToText(
    cards.map((c) => ({ name: c.name, setCode: c.setCode, number: c.number, count: c.count, kind: c.kind })),
    format,
  );
}

const fold = (name: string) => name.normalize("NFKC").toLowerCase().replace(/\s+/g, "");

/**
 * Reads a pasted deck list (community text format): each line is matched by set code and number
 * (P-A and PROMO-A both work), else by its name in Japanese or English — of several printings
 * the most common rarity is taken. Lines that match nothing are returned with their text.
 */
export async function importDeckText(db: Db, text: string): Promise<DeckImportResult> {
  const parsed = parseDeckText(text);
  const index = await cardIndex(db);
  const bySetCode = new Map<string, string>();
  for (const pack of index.packs.values()) bySetCode.set(pack.setCode.toLowerCase(), pack.setCode);
  let byName: Map<string, IndexedCard> | null = null;
  const nameIndex = () => {
    if (byName) return byName;
    byName = new Map();
    // Lowest rarity first, so a name's plain printing wins over its special arts.
    const ordered = [...index.byId.values()].sort((a, b) => a.rank - b.rank || (a.setCode ?? "").localeCompare(b.setCode ?? "") || (a.number ?? 0) - (b.number ?? 0));
    for (const card of ordered) {
      if (!card.packIds.length) continue;
      for (const name of [card.name, card.nameEn]) if (name && !byName.has(fold(name))) byName.set(fold(name), card);
    }
    return byName;
  };

  const rows = new Map<string, { card: IndexedCard; count: number }>();
  const unmatched = [...parsed.invalid];
  for (const line of parsed.lines) {
    let card: IndexedCard | undefined;
    if (line.setCode && line.number !== null) {
      const set = bySetCode.get(catalogueSetCode(line.setCode).toLowerCase());
      if (set) card = index.byId.get(`${set}-${String(line.number).padStart(3, "0")}`);
    }
    card ??= nameIndex().get(fold(line.name));
    if (!card || line.count > LIST_MAX_COPIES) {
      unmatched.push({ line: line.line, text: line.text });
      continue;
    }
    const kept = rows.get(card.id);
    if (kept) kept.count = Math.min(LIST_MAX_COPIES, kept.count + line.count);
    else rows.set(card.id, { card, count: line.count });
  }
  unmatched.sort((a, b) => a.line - b.line);
  const rules = await cardTradeability(db, [...rows.keys()]);
  return { cards: [...rows.values()].map(({ card, count }) => view(index, card, null, count, rules.get(card.id)?.tradeable ?? false)), unmatched };
}
