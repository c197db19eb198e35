import { isRouteErrorResponse, useNavigate } from "react-router";
import { TabList } from "#app/components/ui/tabs.tsx";
import { localeOfMatches } from "#app/components/layout/meta-locale.ts";
import { AdminGuardError } from "#app/features/admin/components/admin-guard-error.tsx";
import { adminMessages } from "#app/features/admin/messages.ts";
import { ADMIN_TAB_DATA } from "#app/features/admin/tab-data.server.ts";
import { ADMIN_TABS, AdminTabQuerySchema } from "#app/features/admin/tabs.tsx";
import { requireAdmin } from "#app/features/users/session.server.ts";
import { translate, useT } from "#app/lib/i18n.tsx";
import { seoMeta } from "#app/lib/seo.ts";
import { requestLog } from "#app/lib/logger.server.ts";
import type { Route } from "./+types/admin";
import { readQuery } from "#app/lib/input.server.ts";

export const meta: Route.MetaFunction = (args) => {
  const locale = localeOfMatches(args.matches);
  const description = translate(adminMessages, locale, "description");
  if (isRouteErrorResponse(args.error)) {
    const key = args.error.status === 401 ? "loginRequired" : "forbidden";
    return seoMeta(args, { title: translate(adminMessages, locale, key), description, noindex: true });
  }
  return seoMeta(args, { title: translate(adminMessages, locale, "title"), description, noindex: true });
};

export async function loader({ request, context }: Route.LoaderArgs) {
  // 401 / 403 before anything of the admin data is read (docs/product-rules.md §6).
  const viewer = await requireAdmin(request, context);
  const { tab } = readQuery(request, AdminTabQuerySchema);
  const load = ADMIN_TAB_DATA[tab];
  // Each tab loads its data only when it is selected (docs/product-rules.md §4).
  const tabData = load ? await load({ db: context.db, viewer, request, log: requestLog(context) }) : null;
  return { tab, tabData };
}

export default function Admin({ loaderData }: Route.ComponentProps) {
  const t = useT(adminMessages);
  const navigate = useNavigate();
  const { tab, tabData } = loaderData;
  const selected = ADMIN_TABS.find((candidate) => candidate.id === tab) ?? ADMIN_TABS[0];
  const Panel = selected.Panel;


  return (
    <section className="space-y-6">
      <h1 className="text-2xl font-bold">{t("heading")}</h1>
      {/* One tab per URL (?tab=…): a click follows the link, the keys navigate to it. */}
      <TabList
        label={t("tabsLabel")}
        tabs={ADMIN_TABS.map((candidate) => ({ id: candidate.id, label: t(candidate.label) }))}
        selected={selected.id}
        onSelect={(id) => void navigate(`/admin?tab=${id}`, { preventScrollReset: true })}
        href={(id) => `/admin?tab=${id}`}
        tabId={(id) => `admin-tab-${id}`}
        panelId={() => "admin-tabpanel"}
        className="flex flex-wrap gap-1 border-b border-slate-200"
        tabClassName={(isSelected) => `-mb-px rounded-t-md border px-4 py-2 text-sm font-bold ${isSelected ? "border-slate-200 border-b-white bg-white text-brand-800" : "border-transparent text-slate-600 hover:text-brand-800"}`}
      />
      <div id="admin-tabpanel" role="tabpanel" aria-labelledby={`admin-tab-${selected.id}`} tabIndex={0} className="focus:outline-none">
        <h2 className="sr-only">{t(selected.label)}</h2>
        {Panel ? (
          <Panel data={tabData} />
        ) : (
          <p className="rounded-lg border border-dashed border-slate-300 bg-white p-6 text-slate-600">{t("preparing")}</p>
        )}
      </div>
    </section>
  );
}

/** 401 ログインが必要です / 403 管理者権限がありません, rendered by the server with that status. */
export function ErrorBoundary() {
  return <AdminGuardError returnTo="/admin" />;
}
