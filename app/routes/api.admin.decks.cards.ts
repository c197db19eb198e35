import { deckCardViews } from "#app/features/decks/decks.server.ts";
import { NO_STORE } from "#app/features/decks/http.server.ts";
import { MAX_DECK_ROWS } from "#app/features/decks/rules.ts";
import { requireApiAdmin } from "#app/features/users/session.server.ts";
import { withJsonErrors } from "#app/lib/api.server.ts";
import type { Route } from "./+types/api.admin.decks.cards";
import { readQuery } from "#app/lib/input.server.ts";
import { z } from "#app/lib/zod.ts";

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
