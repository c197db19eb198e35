import { exportCollectionCsv } from "#app/features/collection/collection-csv.server.ts";
import { requireApiViewer } from "#app/features/users/session.server.ts";
import { withJsonErrors } from "#app/lib/api.server.ts";
import type { Route } from "./+types/api.collection.export";

/** GET /api/collection/export.csv → the collection as `set,number,name,rarity,count` (UTF-8 with BOM, opens in Excel). */
export const loader = withJsonErrors(async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = await requireApiViewer(request, context);
  const day = new Date().toISOString().slice(0, 10);
  return new Response(await exportCollectionCsv(context.db, viewer.id), {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="torepoke-collection-${day}.csv"`,
      "cache-control": "private, no-store",
    },
  });
});
