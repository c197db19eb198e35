import { listMatches } from "../features/trades/trades.server";
import { requireApiViewer } from "../features/users/session.server";
import type { Route } from "./+types/api.trades.matches";
import { withJsonErrors } from "../lib/api.server";

/** GET /api/trades/matches — マッチ for the signed-in user. */
export const loader = withJsonErrors(async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = await requireApiViewer(request, context);
  return Response.json({ matches: await listMatches(context.db, viewer.id) });
});
