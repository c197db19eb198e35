import { cardName } from "#app/lib/card-name.ts";
import { translate, type Locale } from "#app/lib/i18n.tsx";
import { shareMessages } from "./messages";

/**
 * The text a share link carries (X's intent text): what the page is about, the way a player
 * would write it on X — 譲:ゼニガメ 求:ヒトカゲ for an offer, the kind and name for a deck or an
 * article — then the site's name. At most three cards a side: an X post has about 140 Japanese
 * characters, and the link and its picture say the rest.
 */
const CARDS_PER_SIDE = 3;

type NamedCard = { name: string; nameEn?: string | null };

function cardList(cards: readonly NamedCard[], locale: Locale): string {
  const names = cards.slice(0, CARDS_PER_SIDE).map((card) => cardName(card, locale));
  const rest = cards.length - names.length;
  const list = names.join(translate(shareMessages, locale, "shareTextJoin"));
  return rest > 0 ? `${list}${translate(shareMessages, locale, "shareTextMore", { count: rest })}` : list;
}

export function offerShareText(locale: Locale, offer: { give: readonly NamedCard[]; want: readonly NamedCard[]; giveAny: boolean; wantAny: boolean }): string {
  const side = (cards: readonly NamedCard[], any: boolean) => (any ? translate(shareMessages, locale, "shareTextAny") : cardList(cards, locale));
  return translate(shareMessages, locale, "shareTextOffer", {
    give: side(offer.give, offer.giveAny),
    want: side(offer.want, offer.wantAny),
    site: translate(shareMessages, locale, "siteName"),
  });
}

export function deckShareText(locale: Locale, deck: { name: string; tier: number }): string {
  return translate(shareMessages, locale, "shareTextDeck", { name: deck.name, tier: deck.tier, site: translate(shareMessages, locale, "siteName") });
}

export function articleShareText(locale: Locale, article: { title: string; categoryLabel: string }): string {
  return translate(shareMessages, locale, "shareTextArticle", { title: article.title, category: article.categoryLabel, site: translate(shareMessages, locale, "siteName") });
}
