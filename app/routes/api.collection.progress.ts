import { collectionProgress } from "../features/collection/collection.server";
import { requireApiViewer } from "../features/users/session.server";
import { withJsonErrors } from "../lib/api.server";
import { readQuery } from "../lib/input.server";
import { z } from "../lib/zod";
import type { Route } from "./+types/api.collection.progress";

const ProgressQuerySchema = z.object({
  set: z
    .string()
    .optional()
    .transform((set) => set?.slice(0, 20) || null),
});

/** GET /api/collection/progress[?set=A1] → `{sets, packs, rarities}`: owned/total and % (packs and rarities of `set`). */
export const loader = withJsonErrors(async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = await requireApiViewer(request, context);
  const { set } = readQuery(request, ProgressQuerySchema);
  return Response.json(await collectionProgress(context.db, viewer.id, set), { headers: { "Cache-Control": "private, no-store" } });
});
