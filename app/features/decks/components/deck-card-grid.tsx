import { useLocale, useT } from "#app/lib/i18n.tsx";
import { ListLink } from "#app/components/ui/list-link.tsx";
import { CardImage } from "#app/features/cards/components/card-image.tsx";
import { decksMessages, type DecksMessageKey } from "#app/features/decks/messages.ts";
import type { DeckCardView } from "#app/features/decks/types.ts";

/** A card of the deck against the signed-in player's collection. */
export type DeckCardOwnership = { owned: number; missing: number };

/**
 * The deck's cards as a grid of pictures (or placeholders) with ×N, grouped ポケモン / トレーナーズ;
 * with `ownership` (a signed-in player with a collection) each card is marked 所持 or あと N 枚.
 */
export function DeckCardGrid({ cards, ownership }: { cards: readonly DeckCardView[]; ownership?: Readonly<Record<string, DeckCardOwnership>> | null }) {
  const t = useT(decksMessages);
  const locale = useLocale();
  const groups: [DecksMessageKey, DeckCardView[]][] = [
    ["groupPokemon", cards.filter((c) => c.kind === "pokemon")],
    ["groupTrainer", cards.filter((c) => c.kind === "trainer")],
    ["groupUnknown", cards.filter((c) => c.kind === null)],
  ];
  return (
    <div className="space-y-5">
      {groups
        .filter(([, list]) => list.length > 0)
        .map(([label, list]) => (
          <section key={label} aria-label={`${t(label)}（${list.reduce((n, c) => n + c.count, 0)}）`}>
            <h3 className="font-bold">
              {t(label)} <span className="text-sm font-normal text-slate-600">{list.reduce((n, c) => n + c.count, 0)}</span>
            </h3>
            <ul className="mt-2 grid grid-cols-3 gap-3 sm:grid-cols-5 lg:grid-cols-6">
              {list.map((card, i) => {
                const packName = locale === "en" ? card.packNameEn : card.packName;
                return (
                  <li key={card.cardId} className="space-y-1">
                    <ListLink to={`/cards/${encodeURIComponent(card.cardId)}`} className="relative block">
                      <CardImage face={card} packName={packName} eager={i < 6} sizes="(min-width: 1024px) 16vw, (min-width: 640px) 20vw, 33vw" />
                      <span className="absolute bottom-1 right-1 rounded-full bg-slate-900/85 px-2 py-0.5 text-sm font-bold text-white" aria-label={`${card.count}枚`}>
                        {t("copies", { count: card.count })}
                      </span>
                    </ListLink>
                    <p className="truncate text-xs text-slate-600" title={packName}>
                      {packName}
                    </p>
                    {ownership?.[card.cardId] ? <OwnershipMark name={card.name} state={ownership[card.cardId]} /> : null}
                  </li>
                );
              })}
            </ul>
          </section>
        ))}
    </div>
  );
}

function OwnershipMark({ name, state }: { name: string; state: DeckCardOwnership }) {
  const t = useT(decksMessages);
  const label = state.missing ? t("collectionCardMissing", { name, owned: state.owned, count: state.missing }) : t("collectionCardOwned", { name, owned: state.owned });
  return (
    <p
      data-testid="deck-card-ownership"
      data-missing={state.missing}
      className={state.missing ? "rounded bg-red-50 px-1.5 py-0.5 text-xs font-bold text-red-800" : "rounded bg-green-50 px-1.5 py-0.5 text-xs font-bold text-green-800"}
    >
      <span aria-hidden="true">{state.missing ? t("collectionMissingBadge", { count: state.missing }) : `✓ ${t("collectionOwnedBadge")}`}</span>
      <span className="sr-only">{label}</span>
    </p>
  );
}
