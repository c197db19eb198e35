import { deckListFiltersFromParams } from "../features/decks/filters";
import { listPublicDecks } from "../features/decks/decks.server";
import { withJsonErrors } from "../lib/api.server";
import type { Route } from "./+types/api.decks";

/** GET /api/decks?tier=&energy=&category=&cursor= — public decks, pinned first, then newest. */
export const loader = withJsonErrors(async function loader({ request, context }: Route.LoaderArgs) {
  const params = new URL(request.url).searchParams;
  const page = await listPublicDecks(context.db, deckListFiltersFromParams(params), params.get("cursor") || null);
  return Response.json(page, { headers: { "Cache-Control": "public, max-age=30" } });
});
