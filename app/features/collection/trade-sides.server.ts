import { sql } from "drizzle-orm";
import type { Db } from "#app/db/client.server.ts";
import { wantStillOpen } from "#app/db/open-wants.ts";
import { rowsOf } from "#app/db/sql.server.ts";
import { displayRarity } from "#app/lib/rarity.ts";
import { compareCards, type CardIndex, type IndexedCard } from "#app/features/cards/card-index.server.ts";
import { cardTradeability } from "#app/features/trades/trade-rules.server.ts";
import { getCollectionSettings, ownedCounts, type CollectionSettings } from "./collection.server";

/** A card of a player's trade side: its display rarity and the sets it is printed in. */
export type TradeCard = { id: string; rarity: string; sets: string[] };

function setsOf(index: CardIndex, card: IndexedCard): string[] {
  return [...new Set(card.packIds.flatMap((id) => index.packs.get(id)?.setCode ?? []))];
}

/**
 * What a player's collection offers for trades (docs/decisions/041): their spare cards (owned above
 * their keep count) and the cards they want (missing from their chosen sets, on their ほしいカード
 * list, or both, as their want mode says), each in a rarity they trade and tradeable at `now` under
 * the trade rules. The one definition of "spare" and "wanted": トレード候補 pairs them, and a
 * 何でも可 offer's partner chooses from them (docs/decisions/045).
 */
export async function tradeSides(db: Db, userId: string, settings: CollectionSettings, index: CardIndex, now: Date, wanting: readonly string[] | null = null) {
  // `wanting` (a deck's missing cards) stands for what the player wants, in place of their want mode.
  const missingMode = !wanting && settings.wantMode !== "wants";
  const [owned, wantedRows] = await Promise.all([
    ownedCounts(db, userId),
    wanting
      ? Promise.resolve(wanting.map((card_id) => ({ card_id })))
      : settings.wantMode === "missing"
        ? Promise.resolve([])
        : rowsOf<{ card_id: string }>(db, sql`select card_id from wanted_cards wc where wc.user_id = ${userId} and ${wantStillOpen("wc")}`),
  ]);
  // The trade rules as they stand at this moment (docs/decisions/018): a card a rule closed
  // leaves both sides at once.
  const asked = new Set([...owned.keys(), ...wantedRows.map((r) => r.card_id), ...(missingMode ? index.cards.map((c) => c.id) : [])]);
  const states = await cardTradeability(db, [...asked], now);
  const rarities = settings.tradeRarities ? new Set(settings.tradeRarities) : null;
  const trades = (card: IndexedCard) => (!rarities || rarities.has(displayRarity(card.rarity))) && states.get(card.id)?.tradeable === true;
  const asTradeCard = (card: IndexedCard): TradeCard => ({ id: card.id, rarity: displayRarity(card.rarity), sets: setsOf(index, card) });
  const spare: TradeCard[] = [];
  for (const [cardId, count] of owned) {
    const card = index.byId.get(cardId);
    if (card && card.packIds.length && count > settings.keepCount && trades(card)) spare.push(asTradeCard(card));
  }
  const wants = new Map<string, TradeCard>();
  if (missingMode) {
    const sets = settings.wantSets ? new Set(settings.wantSets) : null;
    for (const card of index.cards) {
      if (owned.has(card.id) || !trades(card)) continue;
      if (sets && !setsOf(index, card).some((code) => sets.has(code))) continue;
      wants.set(card.id, asTradeCard(card));
    }
  }
  for (const row of wantedRows) {
    const card = index.byId.get(row.card_id);
    // A card I have spare is one I give, not one I want more of.
    if (card && card.packIds.length && trades(card) && (owned.get(card.id) ?? 0) <= settings.keepCount) wants.set(card.id, asTradeCard(card));
  }
  return { owned, spare, wants: [...wants.values()] };
}

/**
 * The owner's real choices for a 何でも可 side (docs/decisions/045): when the offer gives 何でも可,
 * their spare cards; when it wants 何でも可, their wanted cards — of the rarities the offer's named
 * side holds (a trade is one rarity for the same rarity), in catalogue order. `shared: false` when
 * the owner keeps no collection or did not turn on トレードにコレクションを使う: then the partner
 * chooses any card of those rarities, as before.
 */
export type AnyCardChoices = { shared: false } | { shared: true; cards: IndexedCard[] };

export async function anyCardChoices(
  db: Db,
  index: CardIndex,
  ownerId: string,
  offer: { giveAny: boolean; wantAny: boolean; rarities: readonly string[] },
  now: Date = new Date(),
): Promise<AnyCardChoices> {
  if (!offer.giveAny && !offer.wantAny) return { shared: false };
  const settings = await getCollectionSettings(db, ownerId);
  if (!settings.useForTrades) return { shared: false };
  const sides = await tradeSides(db, ownerId, settings, index, now);
  if (sides.owned.size === 0) return { shared: false };
  const rarities = new Set(offer.rarities);
  const cards = (offer.giveAny ? sides.spare : sides.wants).flatMap((c) => {
    const card = index.byId.get(c.id);
    return card && rarities.has(card.rarity) ? [card] : [];
  });
  return { shared: true, cards: cards.sort(compareCards) };
}
