import { Form, Link } from "react-router";
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

/**
 * The small ほしいカードに追加 button on a card chip of an offer (the board, マッチ, the offer page):
 * `wanted` null is a signed-out reader, who is sent to log in and back. The same plain form as
 * WantButton, keeping the scroll position; a card already wanted shows 追加済み and a press takes it off.
 */
export function WantChipButton({ cardId, name, wanted, returnTo }: { cardId: string; name: string; wanted: boolean | null; returnTo: string }) {
  const t = useT(notificationsMessages);
  const small = "ml-1 inline-flex items-center gap-0.5 rounded-full px-2 py-0.5 text-xs font-bold";
  if (wanted === null) {
    return (
      <Link to={`/login?redirectTo=${encodeURIComponent(returnTo)}`} aria-label={t("wantChipLoginLabel", { name })} className={`${small} border border-brand-700 text-brand-800 hover:bg-brand-50`} data-testid="want-chip">
        <span aria-hidden="true">＋</span>
        {t("wantChipAdd")}
      </Link>
    );
  }
  return (
    <Form method="post" action="/wanted-cards" preventScrollReset className="inline">
      <input type="hidden" name="cardId" value={cardId} />
      <input type="hidden" name="intent" value={wanted ? "remove" : "add"} />
      <input type="hidden" name="redirectTo" value={returnTo} />
      <button
        type="submit"
        aria-label={t(wanted ? "wantChipAddedLabel" : "wantChipAddLabel", { name })}
        data-testid="want-chip"
        data-wanted={wanted ? "true" : "false"}
        className={wanted ? `${small} bg-emerald-100 text-emerald-900 hover:bg-emerald-200` : `${small} border border-brand-700 text-brand-800 hover:bg-brand-50`}
      >
        <span aria-hidden="true">{wanted ? "✓" : "＋"}</span>
        {t(wanted ? "wantChipAdded" : "wantChipAdd")}
      </button>
    </Form>
  );
}
