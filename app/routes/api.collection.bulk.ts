import { BulkChangeSchema } from "#app/features/collection/collection.schema.ts";
import { bulkSetCounts } from "#app/features/collection/collection.server.ts";
import { searchTerms } from "#app/features/cards/cards.server.ts";
import { collectionMessages } from "#app/features/collection/messages.ts";
import { requireApiViewer } from "#app/features/users/session.server.ts";
import { methodNotAllowed, withJsonErrors } from "#app/lib/api.server.ts";
import { readInput } from "#app/lib/input.server.ts";
import type { Route } from "./+types/api.collection.bulk";

/**
 * POST /api/collection/bulk `{"filter": {set, pack?, rarity?, type?, owned?, q?}, "mode": "one" | "zero"}`
 * → `{previous, counts}`: この絞り込みをすべて1枚にする / 0に戻す; `previous` undoes it through /api/collection/counts.
 */
export const action = withJsonErrors(async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") throw methodNotAllowed("POST");
  const viewer = await requireApiViewer(request, context);
  const { filter, mode } = await readInput(request, BulkChangeSchema, { accept: ["json"], messages: collectionMessages, fallback: "errorInvalid" });
  const result = await bulkSetCounts(context.db, viewer.id, { ...filter, terms: searchTerms(filter.q) }, mode);
  return Response.json(result, { headers: { "Cache-Control": "no-store" } });
});

export const loader = withJsonErrors(async () => {
  throw methodNotAllowed("POST");
});
