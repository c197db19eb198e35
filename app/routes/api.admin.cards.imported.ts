import { z } from "../lib/zod";
import { listImportedCards } from "../features/cards/imported-cards.server";
import { cardAdminMessages } from "../features/cards/admin-messages";
import { requireApiAdmin } from "../features/users/session.server";
import { methodNotAllowed, withJsonErrors } from "../lib/api.server";
import { readInput } from "../lib/input.server";
import type { Route } from "./+types/api.admin.cards.imported";

const ImportedQuerySchema = z.object({ pack: z.string().trim().max(60).optional() });

/** GET /api/admin/cards/imported?pack=… → `{cards}`: the cards the CSV import registered (not the catalogue's). Admins only. */
export const loader = withJsonErrors(async function loader({ request, context }: Route.LoaderArgs) {
  await requireApiAdmin(request, context);
  const query = await readInput(request, ImportedQuerySchema, { messages: cardAdminMessages, fallback: "errInvalidRequest" });
  return Response.json({ cards: await listImportedCards(context.db, query.pack || undefined) }, { headers: { "Cache-Control": "private, no-store" } });
});

export const action = withJsonErrors(async () => {
  throw methodNotAllowed("GET");
});
