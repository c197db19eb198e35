import { matchPageJson, parseMatchPage } from "../features/trades/matches.server";
import { requireApiViewer } from "../features/users/session.server";
import type { Route } from "./+types/api.trades.matches";
import { withJsonErrors } from "../lib/api.server";

/** GET /api/trades/matches?page= — one page of マッチ for the signed-in user (JSON made once per kept page). */
export const loader = withJsonErrors(async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = await requireApiViewer(request, context);
  const body = await matchPageJson(context.db, viewer.id, parseMatchPage(new URL(request.url).searchParams.get("page")));
  return new Response(body, { headers: { "content-type": "application/json" } });
});
