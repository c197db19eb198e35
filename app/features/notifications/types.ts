/** What the inbox knows about; the order is the settings table's. */
export const NOTIFICATION_KINDS = ["message", "response", "match", "step", "expiring", "want", "report"] as const;
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
  /** ISO time of the last activity. */
  at: string;
  read: boolean;
  href: string;
};
