import { useState } from "react";
import { cardName } from "#app/lib/card-name.ts";
import { cardPrint } from "#app/lib/card-print.ts";
import { useLocale, useT } from "#app/lib/i18n.tsx";
import { displayRarity } from "#app/lib/rarity.ts";
import { CardSearch } from "#app/features/cards/components/card-search.tsx";
import type { CardListItem } from "#app/features/cards/types.ts";
import { chatMessages } from "#app/features/chat/messages.ts";

/**
 * The partner's choice of the card on the offer's 何でも可 side: the trade picker (cards the trade
 * rules allow now) within the rarities of the offer's other side. When the owner shares their
 * collection for trades, their real cards (`choices`: spare or wanted, docs/decisions/045) come
 * first as one-tap buttons. The server checks the same (chooseAnyCard); a refusal shows as the
 * room's notice.
 */
export function AnyCardChooser({
  rarities,
  chosen,
  onChoose,
  choices = null,
}: {
  rarities: string[];
  chosen: boolean;
  onChoose: (cardId: string) => Promise<boolean>;
  choices?: CardListItem[] | null;
}) {
  const t = useT(chatMessages);
  const locale = useLocale();
  const [open, setOpen] = useState(!chosen);
  const [busy, setBusy] = useState(false);
  const shown = rarities.map(displayRarity).join("・");
  const choose = (cardId: string) => {
    setBusy(true);
    void onChoose(cardId).then((ok) => {
      setBusy(false);
      if (ok) setOpen(false);
    });
  };
  if (!open) {
    return (
      <button type="button" className="mt-1 text-sm text-brand-700 underline" onClick={() => setOpen(true)}>
        {t("anyChooseAgain")}
      </button>
    );
  }
  return (
    <div className="mt-2 space-y-1" data-testid="any-card-chooser">
      <p className="text-xs text-slate-600">{t("anyChooseHintPartner", { rarities: shown })}</p>
      <div aria-busy={busy} className="space-y-2">
        {choices && choices.length > 0 ? (
          <>
            <p className="text-xs text-slate-700">{t("anyChooseFromOwner")}</p>
            <ul className="flex flex-wrap gap-1.5" data-testid="any-card-owner-choices">
              {choices.map((card) => {
                const print = cardPrint(card);
                return (
                  <li key={card.id}>
                    <button
                      type="button"
                      disabled={busy}
                      onClick={() => choose(card.id)}
                      className="min-h-9 rounded-full border border-brand-300 bg-white px-3 py-1 text-xs hover:bg-brand-50 disabled:opacity-60"
                    >
                      {cardName(card, locale)} <span className="text-rarity">{displayRarity(card.rarity)}</span>
                      {print ? <span className="text-slate-600"> {print}</span> : null}
                    </button>
                  </li>
                );
              })}
            </ul>
          </>
        ) : null}
        <CardSearch label={t("anyChooseLabel", { rarity: shown })} searchUrl="/api/trades/picker" rarities={rarities} onSelect={(card) => choose(card.id)} />
      </div>
    </div>
  );
}
