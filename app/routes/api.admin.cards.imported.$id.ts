import { cardAdminMessages } from "#app/features/cards/admin-messages.ts";
import { ImportedCardEditSchema } from "#app/features/cards/card-admin.schema.ts";
import { deleteImportedCard, updateImportedCard } from "#app/features/cards/imported-cards.server.ts";
import { requireApiAdmin } from "#app/features/users/session.server.ts";
import { methodNotAllowed, withJsonErrors } from "#app/lib/api.server.ts";
import { readInput } from "#app/lib/input.server.ts";
import type { Route } from "./+types/api.admin.cards.imported.$id";

/**
 * PATCH /api/admin/cards/imported/{id} `{name, nameEn, rarity, imageUrl}` edits an imported card;
 * DELETE removes one nothing refers to (409 naming what holds it otherwise). Catalogue cards are
 * refused (400): their names are corrected through /api/admin/cards/names. Admins only.
 */
export const action = withJsonErrors(async function action({ request, context, params }: Route.ActionArgs) {
  await requireApiAdmin(request, context);
  const headers = { "Cache-Control": "private, no-store" };
  if (request.method === "PATCH") {
    const edit = await readInput(request, ImportedCardEditSchema, { accept: ["json"], messages: cardAdminMessages, fallback: "errInvalidRequest", code: "invalid_request" });
    return Response.json({ card: await updateImportedCard(context.db, params.id, edit) }, { headers });
  }
  if (request.method === "DELETE") {
    await deleteImportedCard(context.db, params.id);
    return new Response(null, { status: 204, headers });
  }
  throw methodNotAllowed("PATCH, DELETE");
});

export const loader = withJsonErrors(async () => {
  throw methodNotAllowed("PATCH, DELETE");
});
