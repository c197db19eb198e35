import { OfferInputSchema } from "../features/trades/trades.schema";
import { createOffer } from "../features/trades/offers.server";
import { boardEndpoint } from "../features/trades/endpoints.server";
import { requireApiViewer } from "../features/users/session.server";
import { tradesMessages } from "../features/trades/messages";
import { readInput } from "../lib/input.server";
import type { Route } from "./+types/api.trades";
import { endpointLoader, methodNotAllowed, withJsonErrors } from "../lib/api.server";

/** GET /api/trades?give=&want=&pack=&rarity=&cursor= (features/trades/endpoints.server.ts; Express answers it directly too). */
export const loader = endpointLoader(boardEndpoint);

/** POST /api/trades {give:[{cardId,count}], want:[…], comment} → 201 {id}. */
export const action = withJsonErrors(async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") throw methodNotAllowed("GET, POST");
  const viewer = await requireApiViewer(request, context);
  const input = await readInput(request, OfferInputSchema, { accept: ["json"], messages: tradesMessages, fallback: "badRequest" });
  return Response.json(await createOffer(context.db, viewer.id, input), { status: 201 });
});
