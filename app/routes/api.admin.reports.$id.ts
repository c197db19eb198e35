import { redirect } from "react-router";
import { z } from "../lib/zod";
import { resolveReport } from "../features/moderation/moderation.server";
import { requireApiAdmin } from "../features/users/session.server";
import type { Route } from "./+types/api.admin.reports.$id";
import { withJsonErrors } from "../lib/api.server";
import { readInput } from "../lib/input.server";

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
