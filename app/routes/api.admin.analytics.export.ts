import { AnalyticsQuerySchema, exportCsv, periodOf } from "#app/features/analytics/dashboard.server.ts";
import { requireApiAdmin } from "#app/features/users/session.server.ts";
import { withJsonErrors } from "#app/lib/api.server.ts";
import { readQuery } from "#app/lib/input.server.ts";
import type { Route } from "./+types/api.admin.analytics.export";

/** GET /api/admin/analytics/export?range=&from=&to= → the period's rollups as CSV (UTF-8 with BOM for Excel). */
export const loader = withJsonErrors(async function loader({ request, context }: Route.LoaderArgs) {
  await requireApiAdmin(request, context);
  const { period } = periodOf(readQuery(request, AnalyticsQuerySchema));
  const csv = await exportCsv(context.db, period);
  return new Response(`\uFEFF${csv}`, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="analytics-${period.from}-${period.to}.csv"`,
      "Cache-Control": "private, no-store",
    },
  });
});
