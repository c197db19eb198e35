import { redirect } from "react-router";
import { unblockUser } from "#app/features/blocks/blocks.server.ts";
import { requireViewer } from "#app/features/users/session.server.ts";
import type { Route } from "./+types/profile.blocks.$userId";

/** POST /profile/blocks/{userId} — 解除: lifts the viewer's block of that user, back to /profile. */
export async function action({ request, params, context }: Route.ActionArgs) {
  const viewer = await requireViewer(request, context);
  await unblockUser(context.db, viewer.id, params.userId);
  return redirect("/profile?unblocked=1#blocked-users");
}

export function loader() {
  return redirect("/profile#blocked-users");
}
