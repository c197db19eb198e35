import { redirect } from "react-router";
import { refreshNow } from "../features/analytics/pipeline.server";
import { requireApiAdmin } from "../features/users/session.server";
import { methodNotAllowed, withJsonErrors } from "../lib/api.server";
import type { Route } from "./+types/api.admin.analytics";

/**
 * POST /api/admin/analytics: writes this instance's buffered hits and recomputes today's rollups
 * (the 今すぐ集計 button; the job does the same every few minutes). A form post returns to the tab.
 */
export const action = withJsonErrors(async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") throw methodNotAllowed("POST");
  await requireApiAdmin(request, context);
  await refreshNow(context.db);
  const url = new URL(request.url);
  if ((request.headers.get("accept") ?? "").includes("application/json")) return Response.json({ ok: true });
  const back = new URLSearchParams({ tab: "analytics" });
  for (const key of ["range", "from", "to", "channel"]) {
    const value = url.searchParams.get(key);
    if (value) back.set(key, value);
  }
  return redirect(`/admin?${back.toString()}`);
});
