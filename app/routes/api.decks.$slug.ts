import { getDeck } from "../features/decks/decks.server";
import { decksMessages } from "../features/decks/messages";
import { withJsonErrors } from "../lib/api.server";
import { localeFromRequest, translate } from "../lib/i18n";
import type { Route } from "./+types/api.decks.$slug";

/** GET /api/decks/{slug or id} — a public deck with its cards and the legality result; 404 otherwise. */
export const loader = withJsonErrors(async function loader({ request, params, context }: Route.LoaderArgs) {
  const deck = await getDeck(context.db, params.slug);
  if (!deck) return Response.json({ error: translate(decksMessages, localeFromRequest(request), "notFound") }, { status: 404 });
  return Response.json(deck, { headers: { "Cache-Control": "public, max-age=30" } });
});
