import { DeckListQuerySchema } from "#app/features/decks/list-query.ts";
import { listPublicDecks } from "#app/features/decks/decks.server.ts";
import { withJsonErrors } from "#app/lib/api.server.ts";
import { readQuery } from "#app/lib/input.server.ts";
import type { Route } from "./+types/api.decks";

/** GET /api/decks?tier=&energy=&category=&cursor= — public decks, pinned first, then newest. */
export const loader = withJsonErrors(async function loader({ request, context }: Route.LoaderArgs) {
  // あと N 枚以内 is a signed-in page's filter; the public list answers every deck.
  const { cursor, missing: _missing, ...filters } = readQuery(request, DeckListQuerySchema);
  const page = await listPublicDecks(context.db, filters, cursor);
  return Response.json(page, { headers: { "Cache-Control": "public, max-age=30" } });
});
