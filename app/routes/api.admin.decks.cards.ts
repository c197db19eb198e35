import { deckCardViews } from "../features/decks/decks.server";
import { NO_STORE } from "../features/decks/http.server";
import { MAX_DECK_ROWS } from "../features/decks/rules";
import { requireApiAdmin } from "../features/users/session.server";
import { withJsonErrors } from "../lib/api.server";
import type { Route } from "./+types/api.admin.decks.cards";

/**
 * GET /api/admin/decks/cards?ids=A1-096,A1-104 — cards as the deck editor shows them, with the
 * catalogue's type and stage (for the live rule check) and whether they are tradeable.
 */
export const loader = withJsonErrors(async function loader({ request, context }: Route.LoaderArgs) {
  await requireApiAdmin(request, context);
  const ids = (new URL(request.url).searchParams.get("ids") ?? "").split(",").map((id) => id.trim()).filter(Boolean).slice(0, MAX_DECK_ROWS);
  const pack = new URL(request.url).searchParams.get("pack") || null;
  const cards = await deckCardViews(context.db, ids.map((cardId) => ({ cardId, packId: pack, count: 1 })));
  return Response.json({ cards }, { headers: NO_STORE });
});
