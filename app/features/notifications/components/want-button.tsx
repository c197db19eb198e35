import { Form } from "react-router";
import { useT } from "../../../lib/i18n";
import { notificationsMessages } from "../messages";

/**
 * ほしいカードに追加 / ほしいカードから外す for one card: a plain form to /wanted-cards that comes
 * back to this page, so it works before hydration too.
 */
export function WantButton({ cardId, wanted, returnTo, compact = false }: { cardId: string; wanted: boolean; returnTo: string; compact?: boolean }) {
  const t = useT(notificationsMessages);
  return (
    <Form method="post" action="/wanted-cards" className={compact ? "shrink-0" : "mt-3 space-y-1"}>
      <input type="hidden" name="cardId" value={cardId} />
      <input type="hidden" name="intent" value={wanted ? "remove" : "add"} />
      <input type="hidden" name="redirectTo" value={returnTo} />
      <button
        type="submit"
        className={
          wanted
            ? "rounded-md border border-slate-400 bg-white px-3 py-1.5 text-sm font-medium text-slate-800 hover:border-brand-600"
            : "rounded-md bg-brand-700 px-3 py-1.5 text-sm font-bold text-white hover:bg-brand-800"
        }
      >
        {wanted ? t("wantRemove") : t("wantAdd")}
      </button>
      {wanted && !compact ? <p className="text-xs text-slate-600">{t("wantAdded")}</p> : null}
    </Form>
  );
}
