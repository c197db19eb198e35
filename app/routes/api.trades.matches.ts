import { listMatches } from "../features/trades/trades.server";
import type { MatchView } from "../features/trades/types";
import { requireApiViewer } from "../features/users/session.server";
import type { Route } from "./+types/api.trades.matches";
import { withJsonErrors } from "../lib/api.server";

// listMatches hands out the same array while a user's マッチ is unchanged: serialise it once.
const bodies = new WeakMap<MatchView[], string>();

/** GET /api/trades/matches — マッチ for the signed-in user. */
export const loader = withJsonErrors(async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = await requireApiViewer(request, context);
  const matches = await listMatches(context.db, viewer.id);
  let body = bodies.get(matches);
  if (body === undefined) {
    body = JSON.stringify({ matches });
    bodies.set(matches, body);
  }
  return new Response(body, { headers: { "content-type": "application/json" } });
});
