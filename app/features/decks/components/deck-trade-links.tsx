import { Link } from "react-router";
import { useT } from "#app/lib/i18n.tsx";
import { decksMessages } from "#app/features/decks/messages.ts";
import { boardUrlForDeck, newOfferUrlForDeck } from "#app/features/decks/trade-links.ts";
import type { DeckCardView } from "#app/features/decks/types.ts";

/** Trade for it: the board filtered to offers giving the deck's cards, and a prefilled new offer. */
export function DeckTradeLinks({ cards }: { cards: readonly DeckCardView[] }) {
  const t = useT(decksMessages);
  const board = boardUrlForDeck(cards);
  const offer = newOfferUrlForDeck(cards);
  return (
    <section aria-labelledby="deck-trade" className="rounded-xl border border-brand-100 bg-brand-50/60 p-4">
      <h2 id="deck-trade" className="text-lg font-bold">
        {t("tradeHeading")}
      </h2>
      {board && offer ? (
        <>
          <div className="mt-3 flex flex-wrap gap-3">
            <Link to={board} className="rounded-full bg-brand-700 px-5 py-2 font-bold text-white hover:bg-brand-800">
              {t("tradeSearch")}
            </Link>
            <Link to={offer} className="rounded-full border border-brand-700 bg-white px-5 py-2 font-bold text-brand-800 hover:bg-brand-50">
              {t("tradeRecruit")}
            </Link>
          </div>
          <p className="mt-2 text-sm text-slate-700">{t("tradeHint")}</p>
        </>
      ) : (
        <p className="mt-2 text-sm text-slate-700">{t("tradeNone")}</p>
      )}
    </section>
  );
}
