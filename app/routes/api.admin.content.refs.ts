import { z } from "../lib/zod";
import { contentRefsToJson, MAX_REFS, resolveContentRefs } from "../features/content/refs.server";
import { uploadStore } from "../features/uploads/storage.server";
import { requireApiAdmin } from "../features/users/session.server";
import { withJsonErrors } from "../lib/api.server";
import { readJsonBody } from "../lib/json-body.server";
import type { Route } from "./+types/api.admin.content.refs";

const refList = z.array(z.string().max(2000)).max(MAX_REFS).default([]);
const RefIdsSchema = z.object({ cards: refList, articles: refList, decks: refList, images: refList });

/**
 * POST /api/admin/content/refs `{cards, articles, decks, images}` → the data the editors' preview
 * needs to render those blocks and images as the server will (admins only).
 */
export const action = withJsonErrors(async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return Response.json({ error: "Method Not Allowed" }, { status: 405, headers: { Allow: "POST" } });
  await requireApiAdmin(request, context);
  const parsed = RefIdsSchema.safeParse(await readJsonBody(request));
  if (!parsed.success) return Response.json({ error: "Bad Request" }, { status: 400 });
  const refs = await resolveContentRefs(context.db, uploadStore(context.env), parsed.data, { cardImageBaseUrl: context.env.cardImageBaseUrl });
  return Response.json(contentRefsToJson(refs), { headers: { "Cache-Control": "private, no-store" } });
});
