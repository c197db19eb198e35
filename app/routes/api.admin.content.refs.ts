import { z } from "../lib/zod";
import { contentRefsToJson, MAX_REFS, resolveContentRefs } from "../features/content/refs.server";
import { uploadStore } from "../features/uploads/storage.server";
import { requireApiAdmin } from "../features/users/session.server";
import { methodNotAllowed, withJsonErrors } from "../lib/api.server";
import { readInput } from "../lib/input.server";
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
