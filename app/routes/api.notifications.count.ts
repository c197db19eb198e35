import { countUnreadNotifications } from "#app/features/notifications/notifications.server.ts";
import { getViewer } from "#app/features/users/session.server.ts";
import { withJsonErrors } from "#app/lib/api.server.ts";
import type { Route } from "./+types/api.notifications.count";

/**
 * GET /api/notifications/count → {"unread": n}: the header bell's live count. Signed out it is
 * {"unread": 0}, not 401: the bell may ask once more while a log-out is landing, and a refused
 * request there would only be noise in the browser's console.
 */
export const loader = withJsonErrors(async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = await getViewer(request, context);
  const unread = viewer ? await countUnreadNotifications(context.db, viewer.id) : 0;
  return Response.json({ unread }, { headers: { "Cache-Control": "private, no-store" } });
});
