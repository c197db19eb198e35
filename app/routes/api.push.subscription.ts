import { PushError } from "#app/features/push/errors.ts";
import { countSubscriptions, deleteSubscription, PushSubscriptionSchema, saveSubscription } from "#app/features/push/subscriptions.server.ts";
import { requireApiViewer } from "#app/features/users/session.server.ts";
import { methodNotAllowed, withJsonErrors } from "#app/lib/api.server.ts";
import { databaseLimit } from "#app/lib/rate-limit.server.ts";
import { localeFromRequest } from "#app/lib/i18n.tsx";
import { readInput } from "#app/lib/input.server.ts";
import { pushMessages } from "#app/features/push/messages.ts";
import type { Route } from "./+types/api.push.subscription";

/** Subscribe requests a player may make per minute (a browser makes one per tap or key change). */
const SUBSCRIBES_PER_MINUTE = 10;
const subscribeLimit = databaseLimit({ name: "push-subscribe", max: SUBSCRIBES_PER_MINUTE, window: "minute" });

/**
 * POST /api/push/subscription {endpoint, keys:{p256dh, auth}} → 201 {ok, devices}: this device
 * receives pushes (devices: the player's count afterwards; the same endpoint again is no new one),
 * until this session ends; 409 subscription_taken while another account's session holds it.
 * DELETE /api/push/subscription {endpoint} → 204: it no longer does.
 */
export const action = withJsonErrors(async function action({ request, context }: Route.ActionArgs) {
  const viewer = await requireApiViewer(request, context);
  const refusal = { accept: ["json"], messages: pushMessages, fallback: "errorInvalidSubscription", code: "invalid_subscription" } as const;
  if (request.method === "POST") {
    if (!(await subscribeLimit.take(viewer.id, context.db))) throw new PushError("too_many_subscribes");
    const subscription = await readInput(request, PushSubscriptionSchema, refusal);
    await saveSubscription(context.db, viewer.id, subscription, {
      sessionId: viewer.sessionId,
      userAgent: request.headers.get("user-agent"),
      locale: localeFromRequest(request),
      pushServiceOrigins: context.env.pushServiceOrigins,
    });
    return Response.json({ ok: true, devices: await countSubscriptions(context.db, viewer.id) }, { status: 201 });
  }
  if (request.method === "DELETE") {
    const { endpoint } = await readInput(request, PushSubscriptionSchema.pick({ endpoint: true }), refusal);
    await deleteSubscription(context.db, viewer.id, endpoint);
    return new Response(null, { status: 204 });
  }
  throw methodNotAllowed("POST, DELETE");
});
