import { useId } from "react";
import { ListLink } from "../../../components/ui/list-link";
import { isTrainerCard } from "../../../lib/card-face";
import { cardName } from "../../../lib/card-name";
import { cardPrint } from "../../../lib/card-print";
import { useLocale, useT } from "../../../lib/i18n";
import { CardFactList } from "../../cards/components/card-game-facts";
import { decksMessages } from "../messages";
import type { DeckCardView } from "../types";

/** Whether any fact of the card is known (a card no source describes shows nothing rather than a guess). */
function hasFacts(card: DeckCardView): boolean {
  return Boolean(card.element) || card.hp !== null || card.weakness !== null || card.retreatCost !== null || Boolean(card.attacks?.length);
}

/**
 * The deck's Pokémon with what the game prints on them (type, HP, stage, weakness, ex rule,
 * retreat, each attack's cost and damage): the card page's facts list, once per card.
 */
export function DeckCardFacts({ cards }: { cards: readonly DeckCardView[] }) {
  const t = useT(decksMessages);
  const locale = useLocale();
  const id = useId();
  const pokemon = cards.filter((card) => !isTrainerCard(card) && card.kind !== "trainer" && hasFacts(card));
  if (!pokemon.length) return null;
  return (
    <section aria-labelledby={`${id}-h`} className="space-y-3" data-deck-card-facts>
      <h2 id={`${id}-h`} className="text-xl font-bold">
        {t("cardFactsHeading")}
      </h2>
      <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
        {pokemon.map((card) => {
          const print = cardPrint(card);
          return (
            <li key={card.cardId} className="rounded-lg border border-slate-200 bg-white p-3" data-deck-card-fact={card.cardId}>
              <p className="mb-2 flex flex-wrap items-baseline gap-x-2">
                <ListLink to={`/cards/${encodeURIComponent(card.cardId)}`} className="font-bold text-brand-700 underline">
                  {cardName(card, locale)}
                </ListLink>
                <span className="text-sm text-slate-600">{t("copies", { count: card.count })}</span>
                {print ? <span className="font-mono text-xs text-slate-600">{print}</span> : null}
              </p>
              <CardFactList card={card} />
            </li>
          );
        })}
      </ul>
    </section>
  );
}
