import { createOffer } from "#app/features/trades/offers.server.ts";
import { boardEndpoint } from "#app/features/trades/endpoints.server.ts";
import { requireApiViewer } from "#app/features/users/session.server.ts";
import { parseOfferInput } from "#app/features/trades/http.server.ts";
import { z } from "#app/lib/zod.ts";
import { readInput } from "#app/lib/input.server.ts";
import type { Route } from "./+types/api.trades";
import { endpointLoader, methodNotAllowed, withJsonErrors } from "#app/lib/api.server.ts";

/** GET /api/trades?give=&want=&pack=&rarity=&cursor= (features/trades/endpoints.server.ts; Express answers it directly too). */
export const loader = endpointLoader(boardEndpoint);

/** POST /api/trades {give:[{cardId,count}], want:[…], comment} → 201 {id}. */
export const action = withJsonErrors(async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") throw methodNotAllowed("GET, POST");
  const viewer = await requireApiViewer(request, context);
  const input = parseOfferInput(await readInput(request, z.unknown(), { accept: ["json"] }));
  return Response.json(await createOffer(context.db, viewer.id, input), { status: 201 });
});
