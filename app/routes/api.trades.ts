import { zodMessage } from "../features/trades/http.server";
import { OfferInputSchema } from "../features/trades/trades.schema";
import { createOffer } from "../features/trades/offers.server";
import { boardEndpoint } from "../features/trades/endpoints.server";
import { requireApiViewer } from "../features/users/session.server";
import { localeFromRequest } from "../lib/i18n";
import type { Route } from "./+types/api.trades";
import { endpointLoader, withJsonErrors } from "../lib/api.server";

/** GET /api/trades?give=&want=&pack=&rarity=&cursor= (features/trades/endpoints.server.ts; Express answers it directly too). */
export const loader = endpointLoader(boardEndpoint);

/** POST /api/trades {give:[{cardId,count}], want:[…], comment} → 201 {id}. */
export const action = withJsonErrors(async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return Response.json({ error: "Method Not Allowed" }, { status: 405 });
  const viewer = await requireApiViewer(request, context);
  const body = await request.json().catch(() => null);
  const parsed = OfferInputSchema.safeParse(body);
  if (!parsed.success) return Response.json({ error: zodMessage(parsed.error, localeFromRequest(request)) }, { status: 400 });
  return Response.json(await createOffer(context.db, viewer.id, parsed.data), { status: 201 });
});
