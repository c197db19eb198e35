import { DeckError } from "#app/features/decks/errors.ts";
import { deleteDeck, getDeckForEdit, updateDeck } from "#app/features/decks/decks.server.ts";
import { NO_STORE, parseDeckBody } from "#app/features/decks/http.server.ts";
import { uploadStore } from "#app/features/uploads/storage.server.ts";
import { requireApiAdmin } from "#app/features/users/session.server.ts";
import { methodNotAllowed, withJsonErrors } from "#app/lib/api.server.ts";
import { DeckUpdateSchema } from "#app/features/decks/decks.schema.ts";
import type { Route } from "./+types/api.admin.decks.$id";

/** GET /api/admin/decks/{id} — the deck as the editor loads it (public or not). Admins only. */
export const loader = withJsonErrors(async function loader({ request, params, context }: Route.LoaderArgs) {
  await requireApiAdmin(request, context);
  const deck = await getDeckForEdit(context.db, params.id);
  if (!deck) throw new DeckError("not_found");
  return Response.json(deck, { headers: NO_STORE });
});

/** PATCH /api/admin/decks/{id} (docs/product-rules.md §4 save with an id, naming the `revision` it loaded; stale → 409) and DELETE /api/admin/decks/{id}. */
export const action = withJsonErrors(async function action({ request, params, context }: Route.ActionArgs) {
  if (request.method !== "PATCH" && request.method !== "DELETE") throw methodNotAllowed("GET, PATCH, DELETE");
  await requireApiAdmin(request, context);
  if (request.method === "DELETE") {
    await deleteDeck(context.db, params.id, { store: uploadStore(context.env), cardImageBaseUrl: context.env.cardImageBaseUrl });
    return new Response(null, { status: 204, headers: NO_STORE });
  }
  const { revision, ...input } = await parseDeckBody(request, DeckUpdateSchema);
  return Response.json(await updateDeck(context.db, uploadStore(context.env), params.id, input, revision, { cardImageBaseUrl: context.env.cardImageBaseUrl }), { headers: NO_STORE });
});
