import { PushError } from "../features/push/errors";
import { deleteSubscription, PushSubscriptionSchema, saveSubscription } from "../features/push/subscriptions.server";
import { requireApiViewer } from "../features/users/session.server";
import { withJsonErrors } from "../lib/api.server";
import { localeFromRequest } from "../lib/i18n";
import { readJsonBody } from "../lib/json-body.server";
import type { Route } from "./+types/api.push.subscription";

/**
 * POST /api/push/subscription {endpoint, keys:{p256dh, auth}} → 201 {ok}: this device receives pushes.
 * DELETE /api/push/subscription {endpoint} → 204: it no longer does.
 */
export const action = withJsonErrors(async function action({ request, context }: Route.ActionArgs) {
  const viewer = await requireApiViewer(request, context);
  const body = await readJsonBody(request, 8 * 1024);
  if (request.method === "POST") {
    const parsed = PushSubscriptionSchema.safeParse(body);
    if (!parsed.success) throw new PushError("invalid_subscription");
    await saveSubscription(context.db, viewer.id, parsed.data, { userAgent: request.headers.get("user-agent"), locale: localeFromRequest(request) });
    return Response.json({ ok: true }, { status: 201 });
  }
  if (request.method === "DELETE") {
    const parsed = PushSubscriptionSchema.pick({ endpoint: true }).safeParse(body);
    if (!parsed.success) throw new PushError("invalid_subscription");
    await deleteSubscription(context.db, viewer.id, parsed.data.endpoint);
    return new Response(null, { status: 204 });
  }
  return Response.json({ error: "Method Not Allowed" }, { status: 405, headers: { Allow: "POST, DELETE" } });
});
