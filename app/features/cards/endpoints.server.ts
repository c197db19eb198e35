import type { JsonEndpoint } from "../../lib/api.server";
import { searchCards } from "./cards.server";

/**
 * GET /api/cards/search?q=&tradeableOnly=1&excludePacks=a,b — global card search (docs/product-rules.md §7):
 * at most 10 per pack and 20 in all. Pickers restrict it with tradeableOnly and excludePacks.
 */
export const cardSearchEndpoint: JsonEndpoint = async (request, context) => {
  const params = new URL(request.url).searchParams;
  const excludePacks = params
    .getAll("excludePacks")
    .flatMap((value) => value.split(","))
    .map((id) => id.trim())
    .filter(Boolean);
  const tradeableOnly = ["1", "true"].includes(params.get("tradeableOnly") ?? "");
  const found = await searchCards(context.db, params.get("q") ?? "", { tradeableOnly, excludePacks });
  return Response.json({ cards: found }, { headers: { "Cache-Control": "public, max-age=60" } });
};
