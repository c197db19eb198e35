import type { JsonEndpoint } from "../../lib/api.server";
import { getViewer, requireApiViewer } from "../users/session.server";
import { listBoard } from "./board.server";
import { matchPageJson, parseMatchPage } from "./matches.server";
import { boardFiltersFromParams } from "./trades.schema";

/** GET /api/trades?give=&giveAny=&want=&pack=&rarity=&cursor= — the board as JSON. */
export const boardEndpoint: JsonEndpoint = async (request, context) => {
  const url = new URL(request.url);
  const viewer = await getViewer(request, context);
  return Response.json(
    await listBoard(context.db, {
      viewerId: viewer?.id,
      filters: boardFiltersFromParams(url.searchParams),
      cursor: url.searchParams.get("cursor"),
    }),
  );
};

/** GET /api/trades/matches?page= — one page of マッチ for the signed-in user (JSON made once per kept page). */
export const matchesEndpoint: JsonEndpoint = async (request, context) => {
  const viewer = await requireApiViewer(request, context);
  const body = await matchPageJson(context.db, viewer.id, parseMatchPage(new URL(request.url).searchParams.get("page")));
  return new Response(body, { headers: { "content-type": "application/json" } });
};
