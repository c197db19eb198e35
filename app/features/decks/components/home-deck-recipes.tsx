import { Link } from "react-router";
import { useT } from "#app/lib/i18n.tsx";
import { decksMessages } from "#app/features/decks/messages.ts";
import type { DeckSummary } from "#app/features/decks/types.ts";
import { DeckSummaryCard } from "./deck-summary-card";

/** The home page's デッキレシピ section (tier 1 first, then newest); hidden while there are none. */
export function HomeDeckRecipes({ decks }: { decks: readonly DeckSummary[] }) {
  const t = useT(decksMessages);
  if (!decks.length) return null;
  return (
    <section aria-labelledby="home-deck-recipes">
      <h2 id="home-deck-recipes" className="text-xl font-bold">
        {t("homeHeading")}
      </h2>
      <ul className="mt-4 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {decks.map((deck) => (
          <li key={deck.id}>
            <DeckSummaryCard deck={deck} />
          </li>
        ))}
      </ul>
      <p className="mt-3 text-sm">
        <Link to="/deck-recipes" className="text-brand-700 underline">
          {t("homeMore")}
        </Link>
      </p>
    </section>
  );
}
