import { TradeError } from "#app/features/trades/errors.ts";
import { isOfferAction, runOfferAction, type OfferAction } from "#app/features/trades/offer-actions.server.ts";
import { getOffer } from "#app/features/trades/offers.server.ts";
import { respondWithAnyCard } from "#app/features/chat/chat.server.ts";
import { getViewer, requireApiViewer } from "#app/features/users/session.server.ts";
import type { Route } from "./+types/api.trades.$id";
import { methodNotAllowed, withJsonErrors } from "#app/lib/api.server.ts";
import { readInput } from "#app/lib/input.server.ts";
import { z } from "#app/lib/zod.ts";

// The body is checked by the offer action it names (offer-actions.server.ts): here, any JSON object.
const OfferActionBodySchema = z
  .object({ action: z.unknown().optional(), reason: z.unknown().optional(), cardId: z.string().trim().min(1).max(64).optional() })
  .loose()
  .nullable();

/** GET /api/trades/:id — one offer (404 when missing or hidden by a block). */
export const loader = withJsonErrors(async function loader({ request, params, context }: Route.LoaderArgs) {
  const viewer = await getViewer(request, context);
  const offer = await getOffer(context.db, params.id, viewer?.id);
  if (!offer) throw new TradeError("not_found");
  return Response.json({ offer });
});

/**
 * PATCH /api/trades/:id (offer body) edits; DELETE deletes; POST {action} bumps, closes,
 * completes, responds (→ {roomId}; with {cardId}, naming the card of a 何でも可 side), reports ({reason}) or blocks the owner — the same
 * dispatcher as the offer page's form. Owner-only actions answer 403 for anyone else and change
 * nothing.
 */
export const action = withJsonErrors(async function action({ request, params, context }: Route.ActionArgs) {
  const viewer = await requireApiViewer(request, context);
  if (!["DELETE", "PATCH", "POST"].includes(request.method)) throw methodNotAllowed("GET, PATCH, DELETE, POST");
  const body = request.method === "DELETE" ? null : await readInput(request, OfferActionBodySchema, { accept: ["json"] });
  let chosen: OfferAction;
  if (request.method === "DELETE") chosen = "delete";
  else if (request.method === "PATCH") chosen = "save";
  else if (isOfferAction(body?.action) && body.action !== "save" && body.action !== "delete") chosen = body.action;
  else throw new TradeError("bad_request");
  // respond with {cardId}: a 何でも可 offer answered with a card from the owner's collection (docs/decisions/045).
  if (chosen === "respond" && body?.cardId) {
    const { roomId, created } = await respondWithAnyCard(context.db, { offerId: params.id, userId: viewer.id, cardId: body.cardId });
    return Response.json({ roomId, created });
  }
  const outcome = await runOfferAction(context.db, viewer.id, params.id, chosen, body);
  switch (outcome.action) {
    case "delete":
      return new Response(null, { status: 204 });
    case "respond":
      return Response.json({ roomId: outcome.roomId, created: outcome.created });
    case "report":
      return Response.json({ reportId: outcome.reportId }, { status: 201 });
    default:
      return Response.json({ ok: true });
  }
});
