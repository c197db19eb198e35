import { DeckListQuerySchema } from "../features/decks/list-query";
import { listPublicDecks } from "../features/decks/decks.server";
import { withJsonErrors } from "../lib/api.server";
import { readQuery } from "../lib/input.server";
import type { Route } from "./+types/api.decks";

/** GET /api/decks?tier=&energy=&category=&cursor= — public decks, pinned first, then newest. */
export const loader = withJsonErrors(async function loader({ request, context }: Route.LoaderArgs) {
  // あと N 枚以内 is a signed-in page's filter; the public list answers every deck.
  const { cursor, missing: _missing, ...filters } = readQuery(request, DeckListQuerySchema);
  const page = await listPublicDecks(context.db, filters, cursor);
  return Response.json(page, { headers: { "Cache-Control": "public, max-age=30" } });
});
