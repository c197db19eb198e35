import { createDeck, listAdminDecks } from "../features/decks/decks.server";
import { NO_STORE, parseDeckBody } from "../features/decks/http.server";
import { uploadStore } from "../features/uploads/storage.server";
import { requireApiAdmin } from "../features/users/session.server";
import { methodNotAllowed, withJsonErrors } from "../lib/api.server";
import { DeckInputSchema } from "../features/decks/decks.schema";
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
