import { createDeck, listAdminDecks } from "#app/features/decks/decks.server.ts";
import { NO_STORE, parseDeckBody } from "#app/features/decks/http.server.ts";
import { uploadStore } from "#app/features/uploads/storage.server.ts";
import { requireApiAdmin } from "#app/features/users/session.server.ts";
import { methodNotAllowed, withJsonErrors } from "#app/lib/api.server.ts";
import { DeckInputSchema } from "#app/features/decks/decks.schema.ts";
import type { Route } from "./+types/api.admin.decks";

/** GET /api/admin/decks — every deck, newest first (the デッキ管理 list). Admins only. */
export const loader = withJsonErrors(async function loader({ request, context }: Route.LoaderArgs) {
  await requireApiAdmin(request, context);
  return Response.json({ decks: await listAdminDecks(context.db) }, { headers: NO_STORE });
});

/** POST /api/admin/decks — docs/product-rules.md §4 deck save without an id: 201 `{id, slug}`. */
export const action = withJsonErrors(async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") throw methodNotAllowed("GET, POST");
  const viewer = await requireApiAdmin(request, context);
  const input = await parseDeckBody(request, DeckInputSchema);
  return Response.json(await createDeck(context.db, uploadStore(context.env), viewer.id, input, { cardImageBaseUrl: context.env.cardImageBaseUrl }), { status: 201, headers: NO_STORE });
});
