import type { FormEvent } from "react";
import { Form, useFetcher } from "react-router";
import { ListLink } from "#app/components/ui/list-link.tsx";
import { refusalOf } from "#app/lib/form-refusal.ts";
import { useT } from "#app/lib/i18n.tsx";
import { notificationsMessages } from "#app/features/notifications/messages.ts";

/**
 * ほしいカードに追加 / ほしいカードから外す for one card: a plain form to /wanted-cards that comes
 * back to this page, so it works before hydration too.
 */
export function WantButton({
  cardId,
  wanted,
  returnTo,
  compact = false,
  name,
}: {
  cardId: string;
  wanted: boolean;
  returnTo: string;
  compact?: boolean;
  /**
   * The card as a list names it: a list of buttons gives each its card's name, around the visible
   * words ("ゼニガメ ◆ A1 053をほしいカードから外す", "Remove from want list: Squirtle ◆ A1 053").
   */
  name?: string;
}) {
  const t = useT(notificationsMessages);
  return (
    <Form method="post" action="/wanted-cards" className={compact ? "shrink-0" : "mt-3 space-y-1"}>
      <input type="hidden" name="cardId" value={cardId} />
      <input type="hidden" name="intent" value={wanted ? "remove" : "add"} />
      <input type="hidden" name="redirectTo" value={returnTo} />
      <button
        type="submit"
        aria-label={name ? t(wanted ? "wantRemoveLabel" : "wantAddLabel", { name }) : undefined}
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
 * `wanted` null is a signed-out reader, who is sent to log in and back (a ListLink: one on each
 * chip). Once the page has hydrated the press goes through a fetcher to the same /wanted-cards action, so the page stays where it is
 * (no navigation, the scroll position kept): when the action succeeds the page's data is read again
 * and the chip shows 追加済み (or ほしい again); a refusal (the list is full, a card that cannot be
 * traded, too many presses) is shown next to the chip in the server's words. Before hydration it is
 * a plain form that comes back to `returnTo`.
 */
export function WantChipButton(props: { cardId: string; name: string; wanted: boolean | null; returnTo: string }) {
  const t = useT(notificationsMessages);
  if (props.wanted === null) {
    return (
      <ListLink to={`/login?redirectTo=${encodeURIComponent(props.returnTo)}`} aria-label={t("wantChipLoginLabel", { name: props.name })} className="want-chip" data-testid="want-chip">
        {t("wantChipAdd")}
      </ListLink>
    );
  }
  // The server sends the chip's form as it is before hydration; the fetcher (a dozen hooks for
  // each of the dozens of chips on a board page) lives only in the browser. Both draw the same markup
  // (want-button.test.tsx compares them). The browser's tree has one more useId (the fetcher's):
  // nothing inside the chip may call useId, or its ids would differ between the two and break hydration.
  return import.meta.env.SSR ? <WantChipForm {...props} wanted={props.wanted} /> : <WantChipFetcher {...props} wanted={props.wanted} />;
}

type ChipProps = { cardId: string; name: string; wanted: boolean; returnTo: string };

function WantChipFetcher(props: ChipProps) {
  const fetcher = useFetcher<unknown>();
  // A plain form submitted through the fetcher, not fetcher.Form: that resolves its action against the
  // route tree for every chip of a list on each render (as ListForm). answer=inline (an answer in
  // place of the redirect a plain form gets) joins the action's query only when the fetcher sends it.
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    void fetcher.submit(form, { method: "post", action: `${form.getAttribute("action")}&answer=inline`, preventScrollReset: true });
  };
  const busy = fetcher.state !== "idle";
  return <WantChipForm {...props} onSubmit={onSubmit} busy={busy} refusal={fetcher.state === "idle" ? refusalOf(fetcher.data)?.message : undefined} />;
}

/** The chip's form, the same before and after hydration. */
function WantChipForm({
  cardId,
  name,
  wanted,
  returnTo,
  onSubmit,
  busy = false,
  refusal,
}: ChipProps & { onSubmit?: (event: FormEvent<HTMLFormElement>) => void; busy?: boolean; refusal?: string }) {
  const t = useT(notificationsMessages);
  // The card, the intent and the way back are the action's query (the route reads both); ＋ or ✓ is the chip's ::before (app.css).
  const action = `/wanted-cards?${new URLSearchParams({ cardId, intent: wanted ? "remove" : "add", redirectTo: returnTo })}`;
  return (
    <form method="post" action={action} className="inline" onSubmit={onSubmit} data-discover="true">
      <button
        type="submit"
        aria-label={t(wanted ? "wantChipAddedLabel" : "wantChipAddLabel", { name })}
        aria-busy={busy || undefined}
        disabled={busy}
        data-testid="want-chip"
        data-wanted={wanted ? "true" : "false"}
        className="want-chip"
      >
        {t(wanted ? "wantChipAdded" : "wantChipAdd")}
      </button>
      {/* Put in place with its words, so screen readers announce it as it appears. */}
      {refusal ? (
        <span role="alert" data-testid="want-chip-error" className="ml-1 text-xs font-medium text-red-700">
          {refusal}
        </span>
      ) : null}
    </form>
  );
}
