import { translate, type Locale, type Params } from "#app/lib/i18n.tsx";
import { shownName } from "#app/features/users/components/shown-name.ts";
import { formatFriendId } from "#app/lib/friend-id.ts";
import { notificationsMessages, type NotificationsMessageKey } from "#app/features/notifications/messages.ts";
import type { NotificationView, OfferCardsView } from "#app/features/notifications/types.ts";

const STEP_KEYS: Record<string, NotificationsMessageKey> = {
  agree: "stepAgree",
  friend_requested: "stepFriendRequested",
  game_trade_requested: "stepGameTradeRequested",
  card_chosen: "stepCardChosen",
  complete: "stepComplete",
  cancel: "stepCancel",
};

type TextSource = Pick<NotificationView, "kind" | "actorName" | "count" | "cardName" | "cardNameEn" | "detail" | "offer">;

/**
 * The sentence of one notification in `locale`, naming the cards of the offer it is about: the
 * inbox, a push and a mail say the same.
 */
export function notificationText(n: TextSource, locale: Locale): string {
  const sentence = notificationSentence(n, locale);
  return n.offer ? `${sentence}${offerCardsText(n.offer, locale)}` : sentence;
}

/** "（譲 ピカチュウ ⇄ 求 ヒトカゲ×2）": an offer's two sides, 何でも可 for a side that names no card. */
export function offerCardsText(offer: OfferCardsView, locale: Locale): string {
  const t = (key: NotificationsMessageKey, params?: Params) => translate(notificationsMessages, locale, key, params);
  const side = (which: "give" | "want", any: boolean) => {
    const names = offer.cards
      .filter((c) => c.side === which)
      .map((c) => {
        const name = (locale === "en" && c.nameEn) || c.name;
        return c.count > 1 ? t("offerCardCount", { name, count: c.count }) : name;
      });
    return any || names.length === 0 ? t("offerAnyCard") : names.join(t("cardSeparator"));
  };
  return t("offerCards", { give: side("give", offer.giveAny), want: side("want", offer.wantAny) });
}

/** The quoted first line of the chat message a notification is about, or null (none, or previews off). */
export function notificationPreview(n: Pick<NotificationView, "preview">, locale: Locale): string | null {
  return n.preview ? translate(notificationsMessages, locale, "messagePreview", { text: n.preview }) : null;
}

function notificationSentence(n: TextSource, locale: Locale): string {
  const t = (key: NotificationsMessageKey, params?: Params) => translate(notificationsMessages, locale, key, params);
  const params: Params = { name: n.actorName === null ? t("someone") : shownName(n.actorName, locale), count: n.count, card: (locale === "en" && n.cardNameEn) || n.cardName || "" };
  switch (n.kind) {
    case "message":
      return t("kindMessage", params);
    case "response":
      return t("kindResponse", params);
    case "match":
      return t("kindMatch", params);
    case "want":
      return t("kindWant", params);
    case "expiring":
      return t("kindExpiring", params);
    case "step":
      return t(STEP_KEYS[n.detail ?? ""] ?? "stepAgree", params);
    case "report":
      return t(n.detail === "dismissed" ? "reportDismissed" : "reportActioned");
    case "friend":
      return t("kindFriend", { ...params, friendId: formatFriendId(n.detail ?? "") });
  }
}
