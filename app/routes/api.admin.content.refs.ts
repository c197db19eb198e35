import { z } from "#app/lib/zod.ts";
import { contentRefsToJson, MAX_REFS, resolveContentRefs } from "#app/features/content/refs.server.ts";
import { uploadStore } from "#app/features/uploads/storage.server.ts";
import { requireApiAdmin } from "#app/features/users/session.server.ts";
import { methodNotAllowed, withJsonErrors } from "#app/lib/api.server.ts";
import { readInput } from "#app/lib/input.server.ts";
import type { Route } from "./+types/api.admin.content.refs";

const refList = z.array(z.string().max(2000)).max(MAX_REFS).default([]);
const RefIdsSchema = z.object({ cards: refList, articles: refList, decks: refList, images: refList });

/**
 * POST /api/admin/content/refs `{cards, articles, decks, images}` → the data the editors' preview
 * needs to render those blocks and images as the server will (admins only).
 */
export const action = withJsonErrors(async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") throw methodNotAllowed("POST");
  await requireApiAdmin(request, context);
  const input = await readInput(request, RefIdsSchema, { accept: ["json"] });
  const refs = await resolveContentRefs(context.db, uploadStore(context.env), input, { cardImageBaseUrl: context.env.cardImageBaseUrl });
  return Response.json(contentRefsToJson(refs), { headers: { "Cache-Control": "private, no-store" } });
});
