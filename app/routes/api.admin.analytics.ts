import { redirect } from "react-router";
import { refreshNow } from "#app/features/analytics/pipeline.server.ts";
import { requireApiAdmin } from "#app/features/users/session.server.ts";
import { methodNotAllowed, withJsonErrors } from "#app/lib/api.server.ts";
import { readQuery } from "#app/lib/input.server.ts";
import { z } from "#app/lib/zod.ts";
import type { Route } from "./+types/api.admin.analytics";

/**
 * POST /api/admin/analytics: writes this instance's buffered hits and recomputes today's rollups
 * (the 今すぐ集計 button; the job does the same every few minutes). A form post returns to the tab.
 */
const TabQuerySchema = z.object({ range: z.string().optional(), from: z.string().optional(), to: z.string().optional(), channel: z.string().optional() });

export const action = withJsonErrors(async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") throw methodNotAllowed("POST");
  await requireApiAdmin(request, context);
  await refreshNow(context.db);
  if ((request.headers.get("accept") ?? "").includes("application/json")) return Response.json({ ok: true });
  // Back to the tab as it was shown: its period and channel, as given.
  const back = new URLSearchParams({ tab: "analytics" });
  for (const [key, value] of Object.entries(readQuery(request, TabQuerySchema))) if (value) back.set(key, value);
  return redirect(`/admin?${back.toString()}`);
});
