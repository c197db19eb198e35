import { createOffer } from "../features/trades/offers.server";
import { boardEndpoint } from "../features/trades/endpoints.server";
import { requireApiViewer } from "../features/users/session.server";
import { parseOfferInput } from "../features/trades/http.server";
import { z } from "../lib/zod";
import { readInput } from "../lib/input.server";
import type { Route } from "./+types/api.trades";
import { endpointLoader, methodNotAllowed, withJsonErrors } from "../lib/api.server";

/** GET /api/trades?give=&want=&pack=&rarity=&cursor= (features/trades/endpoints.server.ts; Express answers it directly too). */
export const loader = endpointLoader(boardEndpoint);

/** POST /api/trades {give:[{cardId,count}], want:[…], comment} → 201 {id}. */
export const action = withJsonErrors(async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") throw methodNotAllowed("GET, POST");
  const viewer = await requireApiViewer(request, context);
  const input = parseOfferInput(await readInput(request, z.unknown(), { accept: ["json"] }));
  return Response.json(await createOffer(context.db, viewer.id, input), { status: 201 });
});
