import { zodMessage } from "../features/trades/http.server";
import { boardFiltersFromParams, OfferInputSchema } from "../features/trades/trades.schema";
import { createOffer, listBoard } from "../features/trades/trades.server";
import { getViewer, requireApiViewer } from "../features/users/session.server";
import { localeFromRequest } from "../lib/i18n";
import type { Route } from "./+types/api.trades";
import { withJsonErrors } from "../lib/api.server";

/** GET /api/trades?give=&want=&pack=&rarity=&cursor= — the board as JSON. */
export const loader = withJsonErrors(async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const viewer = await getViewer(request, context);
  return Response.json(
    await listBoard(context.db, {
      viewerId: viewer?.id,
      filters: boardFiltersFromParams(url.searchParams),
      cursor: url.searchParams.get("cursor"),
    }),
  );
});

/** POST /api/trades {give:[{cardId,count}], want:[…], comment} → 201 {id}. */
export const action = withJsonErrors(async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return Response.json({ error: "Method Not Allowed" }, { status: 405 });
  const viewer = await requireApiViewer(request, context);
  const body = await request.json().catch(() => null);
  const parsed = OfferInputSchema.safeParse(body);
  if (!parsed.success) return Response.json({ error: zodMessage(parsed.error, localeFromRequest(request)) }, { status: 400 });
  return Response.json(await createOffer(context.db, viewer.id, parsed.data), { status: 201 });
});
