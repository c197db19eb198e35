import { Form, Link } from "react-router";
import { useLocale, useT } from "#app/lib/i18n.tsx";
import { tokyoDateTime } from "#app/lib/tokyo-time.ts";
import { useShownName } from "#app/features/users/components/shown-name.ts";
import { moderationMessages } from "#app/features/moderation/messages.ts";
import type { ReportView } from "#app/features/moderation/types.ts";

export type ReportsPanelData = { reports: ReportView[]; filter: "open" | "all"; done: boolean };

const STATUS_KEY = { open: "reportStatusOpen", dismissed: "reportStatusDismissed", actioned: "reportStatusActioned" } as const;
const TARGET_KEY = { offer: "reportTargetOffer", message: "reportTargetMessage", user: "reportTargetUser", friend_post: "reportTargetFriendPost" } as const;

function ResolveButton({ reportId, action, label, tone }: { reportId: string; action: string; label: string; tone: string }) {
  return (
    <Form method="post" action={`/api/admin/reports/${reportId}`}>
      <input type="hidden" name="action" value={action} />
      <button type="submit" className={`rounded-full border px-3 py-1 text-sm font-bold ${tone}`}>
        {label}
      </button>
    </Form>
  );
}

/** The 通報 tab of the admin area: reports of offers and chat messages, with what to do about them. */
export function ReportsPanel({ data }: { data: unknown }) {
  const { reports, filter, done } = data as ReportsPanelData;
  const t = useT(moderationMessages);
  const shownName = useShownName();
  const locale = useLocale();
  const filterLink = (value: "open" | "all", label: string) => (
    <Link
      to={value === "open" ? "/admin?tab=reports" : "/admin?tab=reports&reports=all"}
      aria-current={filter === value ? "page" : undefined}
      className={`rounded-full px-3 py-1 text-sm ${filter === value ? "bg-slate-800 text-white" : "border border-slate-300 text-slate-800"}`}
    >
      {label}
    </Link>
  );
  return (
    <section aria-labelledby="reports-heading" className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="reports-heading" className="text-xl font-bold">
          {t("reportsTitle")}
        </h2>
        <nav aria-label={t("reportsTitle")} className="flex gap-2">
          {filterLink("open", t("reportsFilterOpen"))}
          {filterLink("all", t("reportsFilterAll"))}
        </nav>
      </div>
      {done ? (
        <p role="status" className="rounded-md bg-emerald-50 px-3 py-2 text-sm font-medium text-emerald-900">
          {t("reportResolved")}
        </p>
      ) : null}
      {reports.length === 0 ? (
        <p className="rounded-lg border border-slate-200 bg-white p-4 text-slate-700">{t("reportsEmpty")}</p>
      ) : (
        <ul className="space-y-3">
          {reports.map((report) => (
            <li key={report.id} className="space-y-2 rounded-lg border border-slate-200 bg-white p-4" data-testid="report">
              <div className="flex flex-wrap items-center gap-2 text-sm text-slate-600">
                <span className="rounded-full bg-slate-100 px-2 py-0.5 font-bold text-slate-800">
                  {t(STATUS_KEY[report.status as keyof typeof STATUS_KEY] ?? "reportStatusOpen")}
                </span>
                <span>
                  {t("reportCreated")}: {tokyoDateTime(report.createdAt, locale)}
                </span>
                <span>
                  {t("reportReporter")}: {shownName(report.reporterName)}
                </span>
              </div>
              <p className="whitespace-pre-line break-words font-medium">{report.reason}</p>
              <div className="rounded-md bg-slate-50 p-3 text-sm">
                <p className="font-bold">
                  {t("reportTarget")}: {t(TARGET_KEY[report.targetType as keyof typeof TARGET_KEY] ?? "reportTargetUser")}
                  {report.targetUserName ? `（${report.targetUserName}）` : ""}
                  {report.targetSuspended ? <span className="ml-2 text-red-700">{t("reportSuspended")}</span> : null}
                </p>
                {report.offer ? (
                  <p className="mt-1">
                    <Link to={`/trades/${report.offer.id}`} className="text-brand-700 underline">
                      {t("viewOffer")}
                    </Link>{" "}
                    <span className="whitespace-pre-line break-words text-slate-700">{report.offer.comment}</span>
                  </p>
                ) : null}
                {report.messageBody !== null ? <p className="mt-1 whitespace-pre-line break-words text-slate-700">{report.messageBody}</p> : null}
              </div>
              {report.status === "open" ? (
                <div className="flex flex-wrap gap-2">
                  <ResolveButton reportId={report.id} action="dismiss" label={t("reportDismiss")} tone="border-slate-400 text-slate-800" />
                  {report.offer && ["open", "negotiating", "expired"].includes(report.offer.status) ? (
                    <ResolveButton reportId={report.id} action="closeOffer" label={t("reportCloseOffer")} tone="border-amber-700 text-amber-900" />
                  ) : null}
                  {report.targetUserId && !report.targetSuspended ? (
                    <details>
                      <summary className="cursor-pointer rounded-full border border-red-700 px-3 py-1 text-sm font-bold text-red-800">{t("reportSuspend")}</summary>
                      <div className="mt-2 space-y-2">
                        <p className="text-sm">{t("reportSuspendConfirm", { name: report.targetUserName ?? "" })}</p>
                        <ResolveButton reportId={report.id} action="suspendUser" label={t("reportSuspend")} tone="border-red-700 bg-red-700 text-white" />
                      </div>
                    </details>
                  ) : null}
                </div>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
