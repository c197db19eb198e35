import type { JsonEndpoint } from "#app/lib/api.server.ts";
import { searchCards } from "./cards.server";
import { readQuery } from "#app/lib/input.server.ts";
import { z } from "#app/lib/zod.ts";

/**
 * GET /api/cards/search?q=&tradeableOnly=1&excludePacks=a,b — global card search (docs/product-rules.md §7):
 * at most 10 per pack and 20 in all. Pickers restrict it with tradeableOnly and excludePacks.
 */
const CardSearchQuerySchema = z.object({
  q: z.string().catch(""),
  tradeableOnly: z
    .string()
    .optional()
    .transform((value) => value === "1" || value === "true"),
  excludePacks: z
    .string()
    .default("")
    .transform((value) =>
      value
        .split(",")
        .map((id) => id.trim())
        .filter(Boolean),
    ),
});

export const cardSearchEndpoint: JsonEndpoint = async (request, context) => {
  const { q, tradeableOnly, excludePacks } = readQuery(request, CardSearchQuerySchema);
  const found = await searchCards(context.db, q, { tradeableOnly, excludePacks });
  return Response.json({ cards: found }, { headers: { "Cache-Control": "public, max-age=60" } });
};
