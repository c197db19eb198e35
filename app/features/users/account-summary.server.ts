import { inArray } from "drizzle-orm";
import type { Db } from "#app/db/client.server.ts";
import { cards } from "#app/db/schema/index.ts";
import { cardPrint } from "#app/lib/card-print.ts";
import { csvLine } from "#app/lib/csv.ts";
import type { Env } from "#app/lib/env.server.ts";
import { translate, type Locale } from "#app/lib/i18n.tsx";
import { tokyoDateTimeSeconds } from "#app/lib/tokyo-time.ts";
import { exportAccountData } from "./account.server";
import { accountSettingsMessages, type AccountSettingsMessageKey } from "./account-settings-messages";
import { DELETED_USER_NAME } from "./display-name";

/**
 * The account export for a person (ダウンロード's second file): the same data as the JSON, the
 * parts a player reads — account, profile, offers, chats, want list, collection — as a CSV in the reader's
 * language, with card names and Japan time. UTF-8 with a byte-order mark: Excel, which most
 * Japanese players open a CSV with, reads it as Shift_JIS without one.
 */
export async function accountSummaryCsv(db: Db, env: Env, userId: string, locale: Locale): Promise<string> {
  const data = await exportAccountData(db, env, userId);
  const t = (key: AccountSettingsMessageKey, params?: Record<string, string | number>) => translate(accountSettingsMessages, locale, key, params);
  const when = (at: Date | string | null | undefined) => (at ? tokyoDateTimeSeconds(new Date(at).toISOString(), locale) : "");
  const ids = [...new Set([...data.tradeOffers.flatMap((o) => o.cards.map((c) => c.cardId)), ...data.wantedCards.map((w) => w.cardId)])];
  const found = ids.length ? await db.select({ id: cards.id, name: cards.name, nameEn: cards.nameEn, rarity: cards.rarity, setCode: cards.setCode, number: cards.number }).from(cards).where(inArray(cards.id, ids)) : [];
  const byId = new Map(found.map((c) => [c.id, c]));
  const cardText = (id: string) => {
    const card = byId.get(id);
    if (!card) return id;
    const name = locale === "en" && card.nameEn ? card.nameEn : card.name;
    return [name, card.rarity, cardPrint(card)].filter(Boolean).join(" ");
  };
  const status = (s: string) => t(`summaryStatus_${s}` as AccountSettingsMessageKey);

  const rows: string[][] = [[t("summaryColKind"), t("summaryColTime"), t("summaryColContent")]];
  // An account signed up through LINE without an address holds a placeholder nobody should read.
  const email = data.account.emailIsPlaceholder ? t("noAddress") : data.account.email;
  rows.push([t("summaryAccount"), when(data.account.createdAt), t("summaryAccountLine", { email })]);
  if (data.profile) rows.push([t("summaryProfile"), when(data.profile.updatedAt), t("summaryProfileLine", { name: data.profile.displayName, friendId: data.profile.friendId ?? "—", trades: data.profile.completedTrades })]);
  for (const offer of data.tradeOffers) {
    const side = (s: "give" | "want") =>
      (s === "give" ? offer.giveAny : offer.wantAny)
        ? t("summaryAnySide")
        : offer.cards.filter((c) => c.side === s).map((c) => (c.count > 1 ? `${cardText(c.cardId)} ×${c.count}` : cardText(c.cardId))).join("・") || "—";
    // An open offer past its expiry reads as expired, as the board shows it.
    const shown = offer.status === "open" && offer.expiresAt && new Date(offer.expiresAt).getTime() <= Date.now() ? "expired" : offer.status;
    rows.push([t("summaryOffer"), when(offer.createdAt), t("summaryOfferLine", { give: side("give"), want: side("want"), status: status(shown) })]);
  }
  for (const room of data.chatRooms) {
    const partner = room.partner.displayName === DELETED_USER_NAME ? t("summaryDeletedUser") : (room.partner.displayName ?? "—");
    rows.push([t("summaryChat"), when(room.createdAt), t("summaryChatLine", { partner, count: room.messages.length })]);
  }
  for (const wanted of data.wantedCards) rows.push([t("summaryWanted"), when(wanted.createdAt), cardText(wanted.cardId)]);
  for (const owned of data.collection.cards) {
    const name = locale === "en" && owned.nameEn ? owned.nameEn : owned.name;
    const print = [owned.set, owned.number === null ? "" : String(owned.number).padStart(3, "0")].filter(Boolean).join(" ");
    rows.push([t("summaryCollection"), when(owned.updatedAt), `${[name, owned.rarity, print].filter(Boolean).join(" ")} ×${owned.count}`]);
  }
  return `\uFEFF${rows.map(csvLine).join("\r\n")}\r\n`;
}

