import { translate, type Locale, type Params } from "../../../lib/i18n";
import { shownName } from "../../users/components/shown-name";
import { notificationsMessages, type NotificationsMessageKey } from "../messages";
import type { NotificationView } from "../types";

const STEP_KEYS: Record<string, NotificationsMessageKey> = {
  agree: "stepAgree",
  friend_requested: "stepFriendRequested",
  game_trade_requested: "stepGameTradeRequested",
  complete: "stepComplete",
  cancel: "stepCancel",
};

type TextSource = Pick<NotificationView, "kind" | "actorName" | "count" | "cardName" | "cardNameEn" | "detail">;

/** The sentence of one notification in `locale`: the inbox, a push and a mail say the same. */
export function notificationText(n: TextSource, locale: Locale): string {
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
  }
}
