import { deckCardViews } from "../features/decks/decks.server";
import { NO_STORE } from "../features/decks/http.server";
import { MAX_DECK_ROWS } from "../features/decks/rules";
import { requireApiAdmin } from "../features/users/session.server";
import { withJsonErrors } from "../lib/api.server";
import type { Route } from "./+types/api.admin.decks.cards";
import { readQuery } from "../lib/input.server";
import { z } from "../lib/zod";

/**
 * GET /api/admin/decks/cards?ids=A1-096,A1-104 — cards as the deck editor shows them, with the
 * catalogue's type and stage (for the live rule check) and whether they are tradeable.
 */
/** `?ids=A1-096,A1-104` (the first MAX_DECK_ROWS) and an optional `?pack=` the cards are shown under. */
const DeckCardsQuerySchema = z.object({
  ids: z
    .string()
    .default("")
    .transform((ids) =>
      ids
        .split(",")
        .map((id) => id.trim())
        .filter(Boolean)
        .slice(0, MAX_DECK_ROWS),
    ),
  pack: z
    .string()
    .optional()
    .transform((pack) => pack || null),
});

export const loader = withJsonErrors(async function loader({ request, context }: Route.LoaderArgs) {
  await requireApiAdmin(request, context);
  const { ids, pack } = readQuery(request, DeckCardsQuerySchema);
  const cards = await deckCardViews(context.db, ids.map((cardId) => ({ cardId, packId: pack, count: 1 })));
  return Response.json({ cards }, { headers: NO_STORE });
});
