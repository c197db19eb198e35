import { PushError } from "#app/features/push/errors.ts";
import { queueTestPush } from "#app/features/push/push-channel.server.ts";
import { requireApiViewer } from "#app/features/users/session.server.ts";
import { methodNotAllowed, withJsonErrors } from "#app/lib/api.server.ts";
import { databaseLimit } from "#app/lib/rate-limit.server.ts";
import type { Route } from "./+types/api.push.send-test";

/** Test pushes a player may ask for per minute. */
const TESTS_PER_MINUTE = 3;
const testLimit = databaseLimit({ name: "push-test", max: TESTS_PER_MINUTE, window: "minute" });

/** POST /api/push/test → 202 {devices}: a test notification to each of the player's devices. */
export const action = withJsonErrors(async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") throw methodNotAllowed("POST");
  const viewer = await requireApiViewer(request, context);
  if (!(await testLimit.take(viewer.id, context.db))) throw new PushError("too_many_tests");
  const devices = await queueTestPush(context.db, viewer.id);
  if (devices === 0) throw new PushError("no_subscription");
  return Response.json({ devices }, { status: 202 });
});
