import { data, redirect } from "react-router";
import { RouteError } from "#app/components/ui/route-error.tsx";
import { WantedCardFormSchema } from "#app/features/notifications/notifications.schema.ts";
import { NotificationError } from "#app/features/notifications/errors.ts";
import { addWantedCard, countWantedChange, removeWantedCard } from "#app/features/notifications/want-list.server.ts";
import { requireViewer } from "#app/features/users/session.server.ts";
import { safeRedirect } from "#app/features/users/safe-redirect.ts";
import { formError, withPageErrors } from "#app/lib/api.server.ts";
import { readFormData } from "#app/lib/forms.server.ts";
import { localeFromRequest } from "#app/lib/i18n.tsx";
import type { Route } from "./+types/wanted-cards";
import { pageUrlOf } from "#app/lib/data-url.ts";

/**
 * POST /wanted-cards (cardId, intent add|remove, redirectTo, answer?): the ほしいカード buttons. The
 * card page's button sends them as form fields; a board's chip names them in the query of the
 * action's URL (one element per chip instead of four: a board page draws dozens), fields first.
 * A plain form (before hydration, the card page's button) is sent back to `redirectTo`, a refusal
 * to this route's error page. The hydrated chip's fetcher sends answer=inline and stays on its
 * page: it hears `{ok, cardId, wanted}`, or the page refusal `{code, message}` with its status,
 * shown next to the chip.
 */
export const action = withPageErrors(async function action({ request, context }: Route.ActionArgs) {
  const url = pageUrlOf(request);
  const viewer = await requireViewer(request, context);
  const form = await readFormData(request);
  const fields = { ...Object.fromEntries(url.searchParams), ...Object.fromEntries(form) };
  const parsed = WantedCardFormSchema.safeParse(fields);
  const inline = fields.answer === "inline";
  try {
    if (!parsed.success) throw new NotificationError("invalid");
    await countWantedChange(context.db, viewer.id);
    if (parsed.data.intent === "add") await addWantedCard(context.db, viewer.id, parsed.data.cardId);
    else await removeWantedCard(context.db, viewer.id, parsed.data.cardId);
  } catch (error) {
    if (inline) return formError(error, localeFromRequest(request));
    throw error;
  }
  if (inline) return data({ ok: true as const, cardId: parsed.data.cardId, wanted: parsed.data.intent === "add" });
  throw redirect(safeRedirect(parsed.data.redirectTo, "/notifications"));
});

/** Nothing to show here: the list lives on /notifications. */
export function loader() {
  throw redirect("/notifications#wanted-cards");
}

export default function WantedCards() {
  return null;
}

/** A refused add from a plain form (a card that cannot be traded, a full list) shows its reason in Japanese. */
export function ErrorBoundary() {
  return <RouteError />;
}
