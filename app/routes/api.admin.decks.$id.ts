import { DeckError } from "../features/decks/errors";
import { deleteDeck, getDeckForEdit, updateDeck } from "../features/decks/decks.server";
import { NO_STORE, parseDeckBody } from "../features/decks/http.server";
import { uploadStore } from "../features/uploads/storage.server";
import { requireApiAdmin } from "../features/users/session.server";
import { methodNotAllowed, withJsonErrors } from "../lib/api.server";
import { DeckUpdateSchema } from "../features/decks/decks.schema";
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
