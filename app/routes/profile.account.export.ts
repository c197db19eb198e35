import { exportAccountData } from "#app/features/users/account.server.ts";
import { requireViewer } from "#app/features/users/session.server.ts";
import type { Route } from "./+types/profile.account.export";

/** ダウンロード: everything the site holds about the signed-in user, generated on request. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = await requireViewer(request, context);
  const body = await exportAccountData(context.db, context.env, viewer.id);
  const day = new Date().toISOString().slice(0, 10);
  return new Response(JSON.stringify(body, null, 2), {
    headers: {
      "content-type": "application/json; charset=utf-8",
      "content-disposition": `attachment; filename="torepoke-account-${day}.json"`,
      "cache-control": "no-store",
    },
  });
}
