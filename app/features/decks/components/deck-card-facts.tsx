import { useId } from "react";
import { ListLink } from "#app/components/ui/list-link.tsx";
import { isTrainerCard } from "#app/lib/card-face.ts";
import { cardName } from "#app/lib/card-name.ts";
import { cardPrint } from "#app/lib/card-print.ts";
import { useLocale, useT } from "#app/lib/i18n.tsx";
import { CardFactList } from "#app/features/cards/components/card-game-facts.tsx";
import { decksMessages } from "#app/features/decks/messages.ts";
import type { DeckCardView } from "#app/features/decks/types.ts";

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
