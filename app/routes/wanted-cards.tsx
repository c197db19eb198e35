import { redirect } from "react-router";
import { RouteError } from "../components/ui/route-error";
import { WantedCardFormSchema } from "../features/notifications/notifications.schema";
import { NotificationError } from "../features/notifications/errors";
import { addWantedCard, removeWantedCard } from "../features/notifications/want-list.server";
import { requireViewer } from "../features/users/session.server";
import { safeRedirect } from "../features/users/safe-redirect";
import { withPageErrors } from "../lib/api.server";
import { readFormData } from "../lib/forms.server";
import type { Route } from "./+types/wanted-cards";

/** POST /wanted-cards (cardId, intent add|remove, redirectTo): the ほしいカード buttons. */
export const action = withPageErrors(async function action({ request, context }: Route.ActionArgs) {
  const viewer = await requireViewer(request, context);
  const form = await readFormData(request);
  const parsed = WantedCardFormSchema.safeParse(Object.fromEntries(form));
  if (!parsed.success) throw new NotificationError("invalid");
  if (parsed.data.intent === "add") await addWantedCard(context.db, viewer.id, parsed.data.cardId);
  else await removeWantedCard(context.db, viewer.id, parsed.data.cardId);
  throw redirect(safeRedirect(parsed.data.redirectTo, "/notifications"));
});

/** Nothing to show here: the list lives on /notifications. */
export function loader() {
  throw redirect("/notifications#wanted-cards");
}

export default function WantedCards() {
  return null;
}

/** A refused add (a card that cannot be traded, a full list) shows its reason in Japanese. */
export function ErrorBoundary() {
  return <RouteError />;
}
