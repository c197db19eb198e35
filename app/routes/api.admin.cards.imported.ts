import { z } from "#app/lib/zod.ts";
import { listImportedCards } from "#app/features/cards/imported-cards.server.ts";
import { cardAdminMessages } from "#app/features/cards/admin-messages.ts";
import { requireApiAdmin } from "#app/features/users/session.server.ts";
import { methodNotAllowed, withJsonErrors } from "#app/lib/api.server.ts";
import { readInput } from "#app/lib/input.server.ts";
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
