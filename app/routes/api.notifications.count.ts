import { countUnreadNotifications } from "../features/notifications/notifications.server";
import { requireApiViewer } from "../features/users/session.server";
import { withJsonErrors } from "../lib/api.server";
import type { Route } from "./+types/api.notifications.count";

/** GET /api/notifications/count → {"unread": n}: the header bell's live count (401 signed out). */
export const loader = withJsonErrors(async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = await requireApiViewer(request, context);
  const unread = await countUnreadNotifications(context.db, viewer.id);
  return Response.json({ unread }, { headers: { "Cache-Control": "private, no-store" } });
});
