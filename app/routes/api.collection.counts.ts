import { CountChangeSchema } from "#app/features/collection/collection.schema.ts";
import { adjustCardCount, setCardCounts } from "#app/features/collection/collection.server.ts";
import { collectionMessages } from "#app/features/collection/messages.ts";
import { requireApiViewer } from "#app/features/users/session.server.ts";
import { methodNotAllowed, withJsonErrors } from "#app/lib/api.server.ts";
import { readInput } from "#app/lib/input.server.ts";
import type { Route } from "./+types/api.collection.counts";

/**
 * POST /api/collection/counts `{"changes": [{cardId, count}]}` (absolute counts, 0..99; the last of
 * a card wins) or `{"cardId", "delta"}` → `{previous, counts}`: `previous` sent back as `changes`
 * undoes it (元に戻す). 401 signed out, 400 `count_out_of_range`, 404 `card_not_found`, 429 `rate_limited`.
 */
export const action = withJsonErrors(async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") throw methodNotAllowed("POST");
  const viewer = await requireApiViewer(request, context);
  const input = await readInput(request, CountChangeSchema, { accept: ["json"], messages: collectionMessages, fallback: "errorInvalid" });
  const result = "changes" in input ? await setCardCounts(context.db, viewer.id, input.changes) : await adjustCardCount(context.db, viewer.id, input.cardId, input.delta);
  return Response.json(result, { headers: { "Cache-Control": "no-store" } });
});

export const loader = withJsonErrors(async () => {
  throw methodNotAllowed("POST");
});
