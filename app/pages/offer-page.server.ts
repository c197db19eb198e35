import type { Db } from "#app/db/client.server.ts";
import { translate, type Locale } from "#app/lib/i18n.tsx";
import { z } from "#app/lib/zod.ts";
import { rarityTradeCosts } from "#app/features/cards/cards.server.ts";
import { countsOf, ownedCountsIfKept, publicCollectionProgress } from "#app/features/collection/collection.server.ts";
import { anyCardChoices } from "#app/features/collection/trade-sides.server.ts";
import { hasCollection } from "#app/features/collection/needs.server.ts";
import { cardFaceOf, cardIndex } from "#app/features/cards/card-index.server.ts";
import type { CardListItem } from "#app/features/cards/types.ts";
import { givesBeyondCollection } from "#app/features/trades/rules.ts";
import type { OfferView } from "#app/features/trades/types.ts";
import { wantedAmong } from "#app/features/notifications/want-list.server.ts";
import { offerShareModel, shareImagePath } from "#app/features/share/share.server.tsx";
import { isDeletedUser, shownName } from "#app/features/users/components/shown-name.ts";
import { responseRecord } from "#app/features/users/response-record.server.ts";
import { TradeError } from "#app/features/trades/errors.ts";
import { tradesMessages } from "#app/features/trades/messages.ts";
import { viewerRoomForOffer } from "#app/features/trades/offer-room.server.ts";
import { getOffer } from "#app/features/trades/offers.server.ts";
import { loadTradeRules, offersClosedByRules } from "#app/features/trades/trade-rules.server.ts";

/** The banners of an action just done on the offer page (`?done=`). */
export const OFFER_DONE = ["posted", "saved", "bumped", "closed", "completed", "reported"] as const;
export type OfferDone = (typeof OFFER_DONE)[number];
/** Banners for the owner's own actions; 通報しました is the reporter's (never the owner's). */
const OWNER_DONE: readonly OfferDone[] = ["posted", "saved", "bumped", "closed", "completed"];

/** The offer page's query: `?done=` the banner of an action just done (anything else: none), `?edit=1` the owner's edit form. */
export const OfferPageQuerySchema = z.object({ done: z.enum(OFFER_DONE).optional().catch(undefined), edit: z.string().optional() });

/** At most this many of the owner's choices are listed on the page (the check takes any of them). */
export const ANY_CHOICES_SHOWN = 60;

/** A card the partner may choose for the 何でも可 side, with how many the reader owns (null: no collection). */
export type AnyChoiceCard = CardListItem & { viewerCount: number | null };
/**
 * The 何でも可 side as the page offers it to a reader who may answer (docs/decisions/045): null when
 * there is nothing to choose here; `shared: false` when the owner keeps no collection for trades, or
 * it lists no card of these rarities (the card is chosen in the room, as before); otherwise the
 * owner's real choices.
 */
export type AnyChoice = null | { shared: false; reason: "not_shared" | "none_listed" } | { shared: true; side: "give" | "want"; cards: AnyChoiceCard[]; total: number };

async function anyChoiceFor(db: Db, offer: OfferView, viewerId: string | null): Promise<AnyChoice> {
  const index = await cardIndex(db);
  const rarities = [...new Set((offer.giveAny ? offer.want : offer.give).map((c) => c.rarity))];
  const choices = await anyCardChoices(db, index, offer.ownerId, { giveAny: offer.giveAny, wantAny: offer.wantAny, rarities });
  // An owner whose list holds none of these rarities leaves any card open (docs/decisions/045).
  if (!choices.shared || choices.cards.length === 0) return { shared: false, reason: choices.shared ? "none_listed" : "not_shared" };
  const side = offer.giveAny ? "give" : "want";
  // The reader's own counts put first the cards they can use: for a 求 何でも可 offer the ones they
  // own (they give one), for a 譲 何でも可 offer the ones they lack (they receive one).
  const viewerCounts = viewerId ? await countsOf(db, viewerId, choices.cards.map((c) => c.id)) : new Map<string, number>();
  const keepsCollection = viewerId !== null && (viewerCounts.size > 0 || (await hasCollection(db, viewerId)));
  const useful = (id: string) => (side === "want" ? (viewerCounts.get(id) ?? 0) > 0 : !viewerCounts.has(id));
  const ordered = keepsCollection ? [...choices.cards.filter((c) => useful(c.id)), ...choices.cards.filter((c) => !useful(c.id))] : choices.cards;
  return {
    shared: true,
    side,
    total: ordered.length,
    cards: ordered.slice(0, ANY_CHOICES_SHOWN).map((card) => ({ ...cardFaceOf(card), viewerCount: keepsCollection ? (viewerCounts.get(card.id) ?? 0) : null })),
  };
}

/**
 * What /trades/:id shows: the offer, whether the reader owns it, the banner of what they just did
 * (only to whom it concerns: a shared URL still carrying ?done= shows nothing to anyone else), the
 * owner's edit form with the rules and trade costs, whether a trade rule closes it now (then no
 * 交渉する, only the reader's own room if any), which of its cards the reader already wants, and
 * the owner's response record and 図鑑の埋まり具合 (only when the owner shows it).
 */
export async function readOfferPage(db: Db, offerId: string, viewerId: string | null, locale: Locale, query: z.output<typeof OfferPageQuerySchema>) {
  const offer = await getOffer(db, offerId, viewerId);
  if (!offer) throw new TradeError("not_found");
  const isOwner = viewerId === offer.ownerId;
  const done = query.done && viewerId && (OWNER_DONE.includes(query.done) ? isOwner : !isOwner) ? query.done : null;
  const editing = isOwner && offer.status === "open" && query.edit === "1";
  const [closed, wantedCardIds, ownerRecord, ownerProgress, rules, tradeCosts] = await Promise.all([
    offersClosedByRules(db, [offer]),
    // The ほしい buttons on the cards this offer gives (not on the reader's own offer; null: signed out).
    isOwner ? ([] as string[]) : viewerId ? wantedAmong(db, viewerId, offer.give.map((c) => c.cardId)) : null,
    responseRecord(db, offer.ownerId),
    publicCollectionProgress(db, offer.ownerId),
    // Only the edit form needs the rules themselves.
    editing ? loadTradeRules(db) : null,
    editing ? rarityTradeCosts(db) : {},
  ]);
  const ruleClosed = closed.has(offer.id);
  const myRoomId = viewerId && !isOwner && (offer.status !== "open" || ruleClosed) ? await viewerRoomForOffer(db, offer.id, viewerId) : null;
  const canAnswer = !isOwner && offer.status === "open" && !ruleClosed && (offer.giveAny || offer.wantAny);
  const [anyChoice, ownerCounts] = await Promise.all([
    canAnswer ? anyChoiceFor(db, offer, viewerId) : null,
    // The poster's own open offer against their collection: a warning, never a refusal.
    isOwner && offer.status === "open" ? ownedCountsIfKept(db, offer.ownerId) : null,
  ]);
  const givesNotOwned = givesBeyondCollection(offer.give, ownerCounts).map((c) => c.cardId);
  const cardNames = (cards: { name: string }[]) => cards.map((c) => c.name).join("・");
  return {
    offer,
    isOwner,
    signedIn: Boolean(viewerId),
    editing,
    rules,
    tradeCosts,
    done,
    myRoomId,
    ruleClosed,
    wantedCardIds,
    ownerRecord,
    ownerProgress,
    anyChoice,
    givesNotOwned,
    /** For the edit form's warning: the owner's counts (null: no collection). */
    ownerCounts: editing ? ownerCounts : null,
    shareImage: shareImagePath("offer", offer.id, offerShareModel(offer)),
    title: translate(tradesMessages, locale, isDeletedUser(offer.ownerName) ? "offerTitleDeleted" : "offerTitle", { name: shownName(offer.ownerName, locale) }),
    description: translate(tradesMessages, locale, "offerDescription", {
      give: offer.giveAny ? translate(tradesMessages, locale, "anyCard") : cardNames(offer.give),
      want: offer.wantAny ? translate(tradesMessages, locale, "anyCard") : cardNames(offer.want),
    }),
  };
}
