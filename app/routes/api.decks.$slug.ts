import { getDeck } from "#app/features/decks/decks.server.ts";
import { DeckError } from "#app/features/decks/errors.ts";
import { withJsonErrors } from "#app/lib/api.server.ts";
import type { Route } from "./+types/api.decks.$slug";

/** GET /api/decks/{slug or id} — a public deck with its cards and the legality result; 404 otherwise. */
export const loader = withJsonErrors(async function loader({ params, context }: Route.LoaderArgs) {
  const deck = await getDeck(context.db, params.slug);
  if (!deck) throw new DeckError("not_found");
  return Response.json(deck, { headers: { "Cache-Control": "public, max-age=30" } });
});
