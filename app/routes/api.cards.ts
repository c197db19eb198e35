import { listCards, MAX_PAGE_SIZE } from "#app/features/cards/cards.server.ts";
import { CardError } from "#app/features/cards/errors.ts";
import type { Route } from "./+types/api.cards";
import { withJsonErrors } from "#app/lib/api.server.ts";
import { parseInput } from "#app/lib/validation.ts";
import { z } from "#app/lib/zod.ts";

const LimitSchema = z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).optional();

/**
 * GET /api/cards?pack=&q=&rarity=&excludeRare=1&limit=&cursor= — docs/product-rules.md §5 "card search by
 * pack": one page of a pack's cards by rarity; `nextCursor` fetches the next page.
 */
export const loader = withJsonErrors(async function loader({ request, context }: Route.LoaderArgs) {
  const params = new URL(request.url).searchParams;
  const packId = params.get("pack")?.trim();
  if (!packId) throw new CardError("unknown_pack_name");
  const limit = parseInput(params.get("limit") || undefined, LimitSchema);
  const page = await listCards(context.db, {
    packId,
    q: params.get("q"),
    rarity: params.get("rarity") || null,
    excludeRare: ["1", "true"].includes(params.get("excludeRare") ?? ""),
    limit,
    cursor: params.get("cursor") || null,
  });
  return Response.json(page, { headers: { "Cache-Control": "public, max-age=60" } });
});
