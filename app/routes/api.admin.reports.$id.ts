import { redirect } from "react-router";
import { z } from "../lib/zod";
import { resolveReport } from "../features/moderation/moderation.server";
import { requireApiAdmin } from "../features/users/session.server";
import type { Route } from "./+types/api.admin.reports.$id";
import { withJsonErrors } from "../lib/api.server";

const ResolveSchema = z.object({ action: z.enum(["dismiss", "closeOffer", "suspendUser"]) });

/**
 * POST /api/admin/reports/:id {action: dismiss | closeOffer | suspendUser} — admins only (401 /
 * 403 otherwise). JSON in, JSON out; the admin 通報 tab's form posts here and is sent back to it.
 */
export const action = withJsonErrors(async function action({ request, params, context }: Route.ActionArgs) {
  await requireApiAdmin(request, context);
  const isJson = (request.headers.get("content-type") ?? "").includes("application/json");
  // An unreadable body (not JSON, not a form) answers the same 400 as a missing action.
  const body = isJson
    ? await request.json().catch(() => null)
    : await request.formData().then((form) => Object.fromEntries(form), () => null);
  const parsed = ResolveSchema.safeParse(body);
  if (!parsed.success) return Response.json({ error: "action must be dismiss, closeOffer or suspendUser" }, { status: 400 });
  await resolveReport(context.db, params.id, parsed.data.action);
  return isJson ? Response.json({ ok: true }) : redirect("/admin?tab=reports&done=1");
});
