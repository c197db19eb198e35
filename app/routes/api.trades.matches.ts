import { listMatchPage, parseMatchPage } from "../features/trades/trades.server";
import type { MatchPage } from "../features/trades/types";
import { requireApiViewer } from "../features/users/session.server";
import type { Route } from "./+types/api.trades.matches";
import { withJsonErrors } from "../lib/api.server";

// listMatchPage hands out the same page object while a user's マッチ is unchanged: encode it once.
const bodies = new WeakMap<MatchPage, Uint8Array<ArrayBuffer>>();
const encoder = new TextEncoder();

/** GET /api/trades/matches?page= — one page of マッチ for the signed-in user. */
export const loader = withJsonErrors(async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = await requireApiViewer(request, context);
  const page = await listMatchPage(context.db, viewer.id, parseMatchPage(new URL(request.url).searchParams.get("page")));
  let body = bodies.get(page);
  if (body === undefined) {
    body = encoder.encode(JSON.stringify(page));
    bodies.set(page, body);
  }
  return new Response(body, { headers: { "content-type": "application/json" } });
});
