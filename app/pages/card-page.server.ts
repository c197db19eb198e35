import type { Db } from "../db/client.server";
import { cardArt } from "../lib/card-face";
import { translate, type Locale } from "../lib/i18n";
import { displayRarity } from "../lib/rarity";
import { listDecksWithCard } from "../features/decks/decks.server";
import { isWantedCard } from "../features/notifications/want-list.server";
import { cardShareModel, shareImagePath } from "../features/share/share.server";
import { offerCountsForCard } from "../features/trades/board.server";
import { cardTradeability, type Tradeability } from "../features/trades/trade-rules.server";
import { cardFamily } from "../features/cards/card-family.server";
import { rememberCard } from "../features/cards/cards.server";
import { CardError } from "../features/cards/errors";
import { cardsMessages } from "../features/cards/messages";

/**
 * What a card's page shows: the card and its family, what the trade rules say of it now (the same
 * answer as the offer form and the gate, docs/decisions/018), the open offers giving and wanting
 * it, the public decks with it, and for a signed-in reader whether it is on their ほしいカード list
 * (null signed out: the signed-out page stays the same for everyone and cacheable). The reads that
 * do not depend on each other go out together.
 */
export async function readCardPage(db: Db, cardId: string, viewerId: string | null, locale: Locale, imageBaseUrl: string | null | undefined) {
  const card = await rememberCard(db, cardId);
  if (!card) throw new CardError("not_found");
  const [family, tradeabilities, tradeCounts, decks] = await Promise.all([cardFamily(db, card), cardTradeability(db, [card.id]), offerCountsForCard(db, card.id), listDecksWithCard(db, card.id)]);
  const tradeability: Tradeability = tradeabilities.get(card.id) ?? { tradeable: false, scope: "rarity", target: card.rarity, until: null };
  const wanted = viewerId && (tradeability.tradeable || tradeability.until) ? await isWantedCard(db, viewerId, card.id) : null;
  const packNames = card.packs.map((p) => (locale === "en" ? p.nameEn : p.nameJa)).join("、");
  return {
    card,
    tradeability,
    // og:image and the JSON-LD image: the largest art by the one art rule (none → the share image).
    image: cardArt(card, imageBaseUrl)?.full ?? null,
    tradeCounts,
    decks,
    wanted,
    family,
    shareImage: shareImagePath("card", card.id, cardShareModel(card, family.setNameJa)),
    title: card.name,
    description: translate(cardsMessages, locale, "detailDescription", { name: card.name, rarity: displayRarity(card.rarity), packs: packNames }),
  };
}
