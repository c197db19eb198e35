import { accountSummaryCsv } from "#app/features/users/account-summary.server.ts";
import { requireViewer } from "#app/features/users/session.server.ts";
import { localeFromRequest } from "#app/lib/i18n.tsx";
import type { Route } from "./+types/profile.account.export-csv";

/** 読みやすい一覧（CSV）: the account export's readable part, in the reader's language and Japan time. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = await requireViewer(request, context);
  const body = await accountSummaryCsv(context.db, context.env, viewer.id, localeFromRequest(request));
  const day = new Date().toISOString().slice(0, 10);
  return new Response(body, {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="torepoke-account-${day}.csv"`,
      "cache-control": "no-store",
    },
  });
}
