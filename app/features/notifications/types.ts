/** What the inbox knows about; the order is the settings table's. */
export const NOTIFICATION_KINDS = ["message", "response", "match", "step", "expiring", "want", "report", "friend"] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

export type NotificationView = {
  id: string;
  kind: NotificationKind;
  roomId: string | null;
  offerId: string | null;
  cardName: string | null;
  cardNameEn: string | null;
  /** The step key for `step`, the outcome for `report`. */
  detail: string | null;
  /** Messages folded into one room notification. */
  count: number;
  actorName: string | null;
  /** The cards of the offer it is about (its own, or its room's), each side; null without an offer. */
  offer: OfferCardsView | null;
  /** A chat message's first line (the latest from the actor), unless the reader turned previews off. */
  preview: string | null;
  /** ISO time of the last activity. */
  at: string;
  read: boolean;
  href: string;
};

/** An offer's cards as notifications name them: 何でも可 when the side names none. */
export type OfferCardsView = {
  giveAny: boolean;
  wantAny: boolean;
  cards: { side: "give" | "want"; name: string; nameEn: string | null; count: number }[];
};
