import { getCardInPack } from "#app/features/cards/cards.server.ts";
import type { Route } from "./+types/api.cards.$packId.$cardId";
import { withJsonErrors } from "#app/lib/api.server.ts";
import { CardError } from "#app/features/cards/errors.ts";

/** GET /api/cards/:packId/:cardId — docs/product-rules.md §7 card lookup by pack and card id. */
export const loader = withJsonErrors(async function loader({ params, context }: Route.LoaderArgs) {
  const card = await getCardInPack(context.db, params.packId, params.cardId);
  if (!card) throw new CardError("not_found");
  return Response.json({ card, packId: params.packId }, { headers: { "Cache-Control": "public, max-age=60" } });
});
