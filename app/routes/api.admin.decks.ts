import { DeckError } from "../features/decks/errors";
import { createDeck, listAdminDecks } from "../features/decks/decks.server";
import { deckErrorResponse, NO_STORE, parseDeckInput } from "../features/decks/http.server";
import { uploadStore } from "../features/uploads/storage.server";
import { requireApiAdmin } from "../features/users/session.server";
import { withJsonErrors } from "../lib/api.server";
import { readJsonBody } from "../lib/json-body.server";
import { localeFromRequest } from "../lib/i18n";
import type { Route } from "./+types/api.admin.decks";

/** GET /api/admin/decks — every deck, newest first (the デッキ管理 list). Admins only. */
export const loader = withJsonErrors(async function loader({ request, context }: Route.LoaderArgs) {
  await requireApiAdmin(request, context);
  return Response.json({ decks: await listAdminDecks(context.db) }, { headers: NO_STORE });
});

/** POST /api/admin/decks — SPEC.md §4 deck save without an id: 201 `{id, slug}`. */
export const action = withJsonErrors(async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return Response.json({ error: "Method Not Allowed" }, { status: 405, headers: { Allow: "GET, POST" } });
  const viewer = await requireApiAdmin(request, context);
  const locale = localeFromRequest(request);
  try {
    const input = parseDeckInput(await readJsonBody(request), locale);
    return Response.json(await createDeck(context.db, uploadStore(context.env), viewer.id, input, { cardImageBaseUrl: context.env.cardImageBaseUrl }), { status: 201, headers: NO_STORE });
  } catch (error) {
    if (error instanceof DeckError) return deckErrorResponse(error, locale);
    throw error;
  }
});
