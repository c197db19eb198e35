import type { Db } from "../db/client.server";
import { translate, type Locale } from "../lib/i18n";
import { z } from "../lib/zod";
import { rarityTradeCosts } from "../features/cards/cards.server";
import { publicCollectionProgress } from "../features/collection/collection.server";
import { wantedAmong } from "../features/notifications/want-list.server";
import { offerShareModel, shareImagePath } from "../features/share/share.server";
import { isDeletedUser, shownName } from "../features/users/components/shown-name";
import { responseRecord } from "../features/users/response-record.server";
import { TradeError } from "../features/trades/errors";
import { tradesMessages } from "../features/trades/messages";
import { viewerRoomForOffer } from "../features/trades/offer-room.server";
import { getOffer } from "../features/trades/offers.server";
import { loadTradeRules, offersClosedByRules } from "../features/trades/trade-rules.server";

/** The banners of an action just done on the offer page (`?done=`). */
export const OFFER_DONE = ["posted", "saved", "bumped", "closed", "completed", "reported"] as const;
export type OfferDone = (typeof OFFER_DONE)[number];
/** Banners for the owner's own actions; 通報しました is the reporter's (never the owner's). */
const OWNER_DONE: readonly OfferDone[] = ["posted", "saved", "bumped", "closed", "completed"];

/** The offer page's query: `?done=` the banner of an action just done (anything else: none), `?edit=1` the owner's edit form. */
export const OfferPageQuerySchema = z.object({ done: z.enum(OFFER_DONE).optional().catch(undefined), edit: z.string().optional() });

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
    shareImage: shareImagePath("offer", offer.id, offerShareModel(offer)),
    title: translate(tradesMessages, locale, isDeletedUser(offer.ownerName) ? "offerTitleDeleted" : "offerTitle", { name: shownName(offer.ownerName, locale) }),
    description: translate(tradesMessages, locale, "offerDescription", {
      give: offer.giveAny ? translate(tradesMessages, locale, "anyCard") : cardNames(offer.give),
      want: offer.wantAny ? translate(tradesMessages, locale, "anyCard") : cardNames(offer.want),
    }),
  };
}
