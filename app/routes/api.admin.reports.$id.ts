import { redirect } from "react-router";
import { z } from "#app/lib/zod.ts";
import { resolveReport } from "#app/features/moderation/moderation.server.ts";
import { requireApiAdmin } from "#app/features/users/session.server.ts";
import type { Route } from "./+types/api.admin.reports.$id";
import { withJsonErrors } from "#app/lib/api.server.ts";
import { readInput } from "#app/lib/input.server.ts";

const ResolveSchema = z.object({ action: z.enum(["dismiss", "closeOffer", "suspendUser"]) });

/**
 * POST /api/admin/reports/:id {action: dismiss | closeOffer | suspendUser} — admins only (401 /
 * 403 otherwise). JSON in, JSON out; the admin 通報 tab's form posts here and is sent back to it.
 */
export const action = withJsonErrors(async function action({ request, params, context }: Route.ActionArgs) {
  await requireApiAdmin(request, context);
  const isJson = (request.headers.get("content-type") ?? "").includes("application/json");
  const input = await readInput(request, ResolveSchema);
  await resolveReport(context.db, params.id, input.action);
  return isJson ? Response.json({ ok: true }) : redirect("/admin?tab=reports&done=1");
});
