import { useState } from "react";
import { useT } from "../../../lib/i18n";
import { displayRarity } from "../../../lib/rarity";
import { CardSearch } from "../../cards/components/card-search";
import { chatMessages } from "../messages";

/**
 * The partner's choice of the card on the offer's 何でも可 side: the trade picker (cards the trade
 * rules allow now) within the rarities of the offer's other side. The server checks the same
 * (chooseAnyCard); a refusal shows as the room's notice.
 */
export function AnyCardChooser({ rarities, chosen, onChoose }: { rarities: string[]; chosen: boolean; onChoose: (cardId: string) => Promise<boolean> }) {
  const t = useT(chatMessages);
  const [open, setOpen] = useState(!chosen);
  const [busy, setBusy] = useState(false);
  const shown = rarities.map(displayRarity).join("・");
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
      <div aria-busy={busy}>
        <CardSearch
          label={t("anyChooseLabel", { rarity: shown })}
          searchUrl="/api/trades/picker"
          rarities={rarities}
          onSelect={(card) => {
            setBusy(true);
            void onChoose(card.id).then((ok) => {
              setBusy(false);
              if (ok) setOpen(false);
            });
          }}
        />
      </div>
    </div>
  );
}
