import { collectionProgress } from "#app/features/collection/collection.server.ts";
import { requireApiViewer } from "#app/features/users/session.server.ts";
import { withJsonErrors } from "#app/lib/api.server.ts";
import { readQuery } from "#app/lib/input.server.ts";
import { z } from "#app/lib/zod.ts";
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
