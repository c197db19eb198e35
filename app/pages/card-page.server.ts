import type { Db } from "#app/db/client.server.ts";
import { cardArt } from "#app/lib/card-face.ts";
import { translate, type Locale } from "#app/lib/i18n.tsx";
import { displayRarity } from "#app/lib/rarity.ts";
import { listDecksWithCard } from "#app/features/decks/decks.server.ts";
import { isWantedCard } from "#app/features/notifications/want-list.server.ts";
import { cardShareModel, shareImagePath } from "#app/features/share/share.server.tsx";
import { offerCountsForCard } from "#app/features/trades/board.server.ts";
import { cardTradeability, type Tradeability } from "#app/features/trades/trade-rules.server.ts";
import { cardFamily } from "#app/features/cards/card-family.server.ts";
import { rememberCard } from "#app/features/cards/cards.server.ts";
import { CardError } from "#app/features/cards/errors.ts";
import { cardsMessages } from "#app/features/cards/messages.ts";

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
