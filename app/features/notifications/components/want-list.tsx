import { Link } from "react-router";
import { useLocale, useT } from "#app/lib/i18n.tsx";
import { cardPrint } from "#app/lib/card-print.ts";
import { displayRarity } from "#app/lib/rarity.ts";
import { notificationsMessages } from "#app/features/notifications/messages.ts";
import { WantButton } from "./want-button";

export type WantListItem = { cardId: string; name: string; nameEn: string; rarity: string; setCode?: string | null; number?: number | null; met?: boolean };

/**
 * The player's ほしいカード, each with its card page and a way off the list; a want the collection
 * has since met says so (it sends no alerts until the count goes back down).
 */
export function WantList({ cards }: { cards: WantListItem[] }) {
  const t = useT(notificationsMessages);
  const locale = useLocale();
  return (
    <section aria-labelledby="wanted-cards" className="space-y-2">
      <h2 id="wanted-cards" className="text-lg font-bold">
        {t("wantHeading")}
      </h2>
      {cards.length === 0 ? (
        <p className="text-sm text-slate-600">{t("wantEmpty")}</p>
      ) : (
        <ul className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white" data-testid="wanted-cards">
          {cards.map((card) => {
            // ゼニガメ ◆ is in A1, A4b and B1a: the print says which one is on the list.
            const print = cardPrint(card);
            const name = (locale === "en" && card.nameEn) || card.name;
            return (
              <li key={card.cardId} className="flex items-center justify-between gap-3 px-3 py-2">
                <Link to={`/cards/${card.cardId}`} className="font-medium underline-offset-2 hover:underline">
                  {name} <span className="text-amber-700">{displayRarity(card.rarity)}</span>
                  {/* The space keeps the accessible name "ゼニガメ ◆ A1 053", not "ゼニガメ ◆A1 053". */}
                  {print ? <>{" "}<span className="text-xs font-normal text-slate-600">{print}</span></> : null}
                </Link>
                {card.met ? (
                  <span className="ml-auto shrink-0 rounded-full bg-emerald-50 px-2 py-0.5 text-xs font-bold text-emerald-800" data-testid="want-met">
                    {t("wantMet")}
                  </span>
                ) : null}
                <WantButton
                  cardId={card.cardId}
                  wanted
                  returnTo="/notifications#wanted-cards"
                  compact
                  name={[name, displayRarity(card.rarity), print].filter(Boolean).join(" ")}
                />
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
