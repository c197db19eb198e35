import type { CardFace } from "#app/lib/card-face.ts";
import type { OfferStatus, RarityPairs } from "./rules";
import type { CardSearchResult } from "#app/features/cards/types.ts";

// Shapes the trade service returns; client components import them from here, not from the server file.

/** A card of an offer: what its picture is drawn from, and how many copies. */
export type OfferCardView = Omit<CardFace, "id"> & {
  cardId: string;
  count: number;
};

export type OfferView = {
  id: string;
  ownerId: string;
  ownerName: string;
  ownerCompletedTrades: number;
  ownerLastActiveAt: string;
  /** The status a reader sees: an open offer past its expiry reads as expired. */
  status: OfferStatus;
  comment: string;
  partnerId: string | null;
  give: OfferCardView[];
  want: OfferCardView[];
  /** 何でも可 on that side: no cards named; the partner picks any card of the same rarity from their own offers. */
  giveAny: boolean;
  wantAny: boolean;
  createdAt: string;
  bumpedAt: string;
  expiresAt: string;
  /** When the owner may bump again (ISO), or null when the status does not allow bumping. */
  nextBumpAt: string | null;
};

/**
 * A card chip of an offer on a list: what the chip reads — its thumbnail (art or placeholder),
 * name, rarity, print and count. A list page sends only these, and leaves out the ones a card has
 * none of (docs/decisions/026); a whole OfferCardView is one too.
 */
export type OfferChipView = Pick<OfferCardView, "cardId" | "count" | "name" | "rarity"> &
  Partial<Pick<OfferCardView, "nameEn" | "imageUrl" | "imageFile" | "storedImage" | "speciesArt" | "element" | "cardType" | "setCode" | "number">>;

/**
 * An offer as a list shows it (OfferCard on the board, マッチ, the home page): list pages send only
 * this to the browser, not the whole OfferView.
 */
export type OfferListItem = Pick<
  OfferView,
  "id" | "ownerId" | "ownerName" | "ownerCompletedTrades" | "ownerLastActiveAt" | "status" | "comment" | "createdAt" | "bumpedAt" | "giveAny" | "wantAny"
> & {
  give: OfferChipView[];
  want: OfferChipView[];
  /** A trade-rule change closed one of its cards (trade-rules.ts): shown marked, never deleted. */
  ruleClosed?: boolean;
};

/** A match as the マッチ list shows it: the offer, how many trades fit, and the cards that pair. */
export type MatchListItem = OfferListItem & { fitting: number; pairGive: string[]; pairWant: string[] };

export type MatchView = OfferView & {
  /** How many 1:1 trades fit at once (sum over rarities of min(cards I get, cards I give)). */
  fitting: number;
  /** Per rarity: their cards I want (give) and my cards they want (want). */
  pairs: RarityPairs[];
};

export type BoardPage = { offers: OfferView[]; nextCursor: string | null };

/** One page of マッチ: `page` is 1-based; `total` counts every ranked offer kept (MATCH_LIMIT at most). */
export type MatchPage = { matches: MatchView[]; page: number; pageCount: number; total: number };



/** A card in the trade picker: tradeable now (`opensAt` null), or marked with the time a dated rule opens it. */
export type TradePickerCard = CardSearchResult & { opensAt: string | null };
