import type { ReactNode } from "react";
import { Form } from "react-router";
import { FormField, SelectField } from "#app/components/ui/form-field.tsx";
import { useLocale, useT } from "#app/lib/i18n.tsx";
import { tokyoMediumDateTime } from "#app/lib/tokyo-time.ts";
import type { AnalyticsTabData, Headline, TopRow } from "#app/features/analytics/dashboard.server.ts";
import { analyticsMessages, type AnalyticsMessageKey } from "#app/features/analytics/messages.ts";
import { BarChart, ChartWithTable, LineChart } from "./charts";

const RANGE_KEYS = { today: "rangeToday", "7d": "range7d", "30d": "range30d", "90d": "range90d", custom: "rangeCustom" } as const;
const STEP_KEYS = { posted: "stepPosted", matched: "stepMatched", room_opened: "stepRoomOpened", agreed: "stepAgreed", completed: "stepCompleted" } as const;
const EVENT_KEYS: Record<string, AnalyticsMessageKey> = {
  offer_posted: "eventOfferPosted",
  matched: "eventMatched",
  room_opened: "eventRoomOpened",
  terms_agreed: "eventTermsAgreed",
  friend_request_sent: "eventFriendRequestSent",
  game_trade_sent: "eventGameTradeSent",
  trade_completed: "eventTradeCompleted",
  trade_cancelled: "eventTradeCancelled",
};

const TH = "border-b border-slate-200 px-2 py-1 text-left font-medium text-slate-600";
const TD = "border-b border-slate-100 px-2 py-1";
const NUM = "border-b border-slate-100 px-2 py-1 text-right tabular-nums";

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={`analytics-${id}`} className="space-y-3 rounded-lg border border-slate-200 bg-white p-4" data-testid={`analytics-${id}`}>
      <h2 id={`analytics-${id}`} className="text-lg font-bold">
        {title}
      </h2>
      {children}
    </section>
  );
}

/** The admin アクセス解析 tab (docs/decisions/020): everything comes from the daily rollups. */
export function AnalyticsPanel({ data }: { data: unknown }) {
  const d = data as AnalyticsTabData;
  const t = useT(analyticsMessages);
  const locale = useLocale();
  const number = new Intl.NumberFormat(locale === "en" ? "en-US" : "ja-JP", { maximumFractionDigits: 1 });
  const percent = new Intl.NumberFormat(locale === "en" ? "en-US" : "ja-JP", { style: "percent", maximumFractionDigits: 1 });
  const duration = (s: number | null) => {
    if (s === null) return "—";
    const whole = Math.round(s);
    return whole < 60 ? t("seconds", { count: whole }) : t("minutesSeconds", { m: Math.floor(whole / 60), s: whole % 60 });
  };
  const kindLabel = (kind: string) => t(`kind_${kind}` as AnalyticsMessageKey);
  const channelLabel = (channel: string) => (channel ? t(`channel_${channel}` as AnalyticsMessageKey) : channel);
  const query = new URLSearchParams({
    range: d.range,
    from: d.period.from,
    to: d.period.to,
    ...(d.channel ? { channel: d.channel } : {}),
    ...(d.source !== null ? { source: d.source || "-" } : {}),
  });
  const empty = d.current.visits === 0 && d.events.length === 0;

  const headlines: { key: keyof Headline; label: string; format: (v: number) => string; lowerIsBetter?: boolean }[] = [
    { key: "visitors", label: t("visitors"), format: (v) => number.format(v) },
    { key: "visits", label: t("visits"), format: (v) => number.format(v) },
    { key: "pageviews", label: t("pageviews"), format: (v) => number.format(v) },
    { key: "viewsPerVisit", label: t("viewsPerVisit"), format: (v) => number.format(v) },
    { key: "bounceRate", label: t("bounceRate"), format: (v) => percent.format(v), lowerIsBetter: true },
    { key: "visitDurationS", label: t("visitDuration"), format: (v) => duration(v) },
    { key: "engagedS", label: t("engaged"), format: (v) => duration(v) },
  ];

  const topTable = (rows: TopRow[], label: string, show: (v: string) => string, extra?: "entries" | "exits") => (
    <table className="w-full text-sm">
      <thead>
        <tr>
          <th scope="col" className={TH}>{label}</th>
          <th scope="col" className={`${TH} text-right`}>{t("visitors")}</th>
          <th scope="col" className={`${TH} text-right`}>{extra ? t(extra) : t("pageviews")}</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.value}>
            <td className={`${TD} break-all`}>{show(r.value)}</td>
            <td className={NUM}>{number.format(r.visitors)}</td>
            <td className={NUM}>{number.format(extra ? r[extra] : r.pageviews)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
  const topBlock = (id: string, title: string, rows: TopRow[], label: string, show: (v: string) => string = (v) => v, extra?: "entries" | "exits") => (
    <div className="space-y-2" data-testid={`analytics-${id}`}>
      <h3 className="font-bold">{title}</h3>
      {rows.length ? <ChartWithTable chart={<BarChart bars={rows.map((r) => ({ label: show(r.value), value: extra ? r[extra] : r.visitors }))} />} table={topTable(rows, label, show, extra)} /> : <p className="text-sm text-slate-600">{t("noData")}</p>}
    </div>
  );

  return (
    <div className="space-y-6">
      <Form method="get" action="/admin" className="flex flex-wrap items-end gap-3" aria-label={t("periodLabel")}>
        <input type="hidden" name="tab" value="analytics" />
        <div className="w-40">
          <SelectField id="analytics-range" name="range" label={t("periodLabel")} defaultValue={d.range}>
            {(Object.keys(RANGE_KEYS) as (keyof typeof RANGE_KEYS)[]).map((r) => (
              <option key={r} value={r}>
                {t(RANGE_KEYS[r])}
              </option>
            ))}
          </SelectField>
        </div>
        <div className="w-44">
          <FormField id="analytics-from" name="from" type="date" label={t("from")} defaultValue={d.period.from} />
        </div>
        <div className="w-44">
          <FormField id="analytics-to" name="to" type="date" label={t("to")} defaultValue={d.period.to} />
        </div>
        <button type="submit" className="rounded-md bg-brand-700 px-4 py-2 font-bold text-white hover:bg-brand-800">
          {t("show")}
        </button>
      </Form>
      {d.periodError ? (
        <p role="alert" className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800">
          {t("errorPeriod")}
        </p>
      ) : null}
      <div className="flex flex-wrap items-center gap-3 text-sm text-slate-600">
        <span data-testid="analytics-period">{t("periodRange", { from: d.period.from, to: d.period.to, pfrom: d.previous.from, pto: d.previous.to })}</span>
        <span>{d.computedAt ? t("computedAt", { at: tokyoMediumDateTime(d.computedAt, locale) }) : t("notComputed")}</span>
        <Form method="post" action={`/api/admin/analytics?${query.toString()}`} reloadDocument>
          <button type="submit" className="rounded-md border border-slate-300 px-3 py-1 font-medium text-slate-800 hover:bg-slate-50">
            {t("refresh")}
          </button>
        </Form>
        <a href={`/api/admin/analytics/export?${query.toString()}`} download className="rounded-md border border-slate-300 px-3 py-1 font-medium text-slate-800 hover:bg-slate-50">
          {t("exportCsv")}
        </a>
      </div>

      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4 lg:grid-cols-7" data-testid="analytics-headline">
        {headlines.map((h) => {
          const now = d.current[h.key];
          const before = d.before[h.key];
          const change = before ? (now - before) / before : null;
          return (
            <div key={h.key} className="rounded-lg border border-slate-200 bg-white p-3" data-testid={`headline-${h.key}`}>
              <dt className="text-xs font-medium text-slate-600">{h.label}</dt>
              <dd className="mt-1 text-2xl font-bold tabular-nums">{h.format(now)}</dd>
              <dd className="text-xs text-slate-600">
                {change === null ? t("noPrevious") : change === 0 ? t("noChange") : t("change", { change: `${change > 0 ? "+" : ""}${percent.format(change)}` })}
              </dd>
            </div>
          );
        })}
      </dl>
      {empty ? <p className="text-slate-600">{t("noData")}</p> : null}

      <Section id="series" title={t("seriesHeading")}>
        <ChartWithTable
          chart={
            <LineChart
              points={d.series.map((p) => p.label)}
              series={[
                { name: "visitors", label: t("visitors"), values: d.series.map((p) => p.visitors), className: "stroke-brand-600", swatchClassName: "border-brand-600" },
                { name: "pageviews", label: t("pageviews"), values: d.series.map((p) => p.pageviews), className: "stroke-slate-500", swatchClassName: "border-slate-500", dashed: true },
              ]}
            />
          }
          table={
            <table className="w-full text-sm">
              <caption className="sr-only">{t("seriesCaption", { label: d.period.from === d.period.to ? t("hour") : t("day") })}</caption>
              <thead>
                <tr>
                  <th scope="col" className={TH}>{d.period.from === d.period.to ? t("hour") : t("day")}</th>
                  <th scope="col" className={`${TH} text-right`}>{t("visitors")}</th>
                  <th scope="col" className={`${TH} text-right`}>{t("pageviews")}</th>
                </tr>
              </thead>
              <tbody>
                {d.series.filter((p) => p.pageviews > 0 || d.series.length <= 31).map((p) => (
                  <tr key={p.label}>
                    <td className={TD}>{p.label}</td>
                    <td className={NUM}>{number.format(p.visitors)}</td>
                    <td className={NUM}>{number.format(p.pageviews)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          }
        />
      </Section>

      <Section id="realtime" title={t("realtimeHeading")}>
        <p className="text-2xl font-bold" data-testid="analytics-realtime-visitors">{t("realtimeVisitors", { count: d.realtime.visitors })}</p>
        {d.realtime.pages.length ? (
          <table className="w-full text-sm">
            <thead>
              <tr>
                <th scope="col" className={TH}>{t("page")}</th>
                <th scope="col" className={`${TH} text-right`}>{t("visitors")}</th>
              </tr>
            </thead>
            <tbody>
              {d.realtime.pages.map((p) => (
                <tr key={p.path}>
                  <td className={`${TD} break-all`}>{p.path}</td>
                  <td className={NUM}>{number.format(p.visitors)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : null}
      </Section>

      <Section id="pages" title={t("pagesHeading")}>
        {topBlock("kinds", t("kindsHeading"), d.kinds, t("kind"), kindLabel)}
        <div className="space-y-2" data-testid="analytics-top-pages">
          <h3 className="font-bold">{t("pagesHeading")}</h3>
          <div className="overflow-x-auto">
            <table className="w-full text-sm">
              <thead>
                <tr>
                  <th scope="col" className={TH}>{t("kind")}</th>
                  <th scope="col" className={TH}>{t("page")}</th>
                  <th scope="col" className={`${TH} text-right`}>{t("visitors")}</th>
                  <th scope="col" className={`${TH} text-right`}>{t("pageviews")}</th>
                  <th scope="col" className={`${TH} text-right`}>{t("engaged")}</th>
                </tr>
              </thead>
              <tbody>
                {[...d.pages].sort((a, b) => a.kind.localeCompare(b.kind) || b.visitors - a.visitors).map((p) => (
                  <tr key={p.value}>
                    <td className={TD}>{kindLabel(p.kind)}</td>
                    <td className={`${TD} break-all`}>{p.value}</td>
                    <td className={NUM}>{number.format(p.visitors)}</td>
                    <td className={NUM}>{number.format(p.pageviews)}</td>
                    <td className={NUM}>{duration(p.pageviews ? p.engagedMs / 1000 / p.pageviews : null)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </div>
        <div className="grid gap-6 lg:grid-cols-2">
          {topBlock("entries", t("entriesHeading"), d.entries, t("page"), (v) => v, "entries")}
          {topBlock("exits", t("exitsHeading"), d.exits, t("page"), (v) => v, "exits")}
        </div>
      </Section>

      <Section id="sources" title={t("sourcesHeading")}>
        {topBlock("source-hosts", t("sourcesHeading"), d.sources, t("source"), (v) => v || t("directSource"))}
        {topBlock("channels", t("channelsHeading"), d.channels, t("channel"), channelLabel)}
        <div className="grid gap-6 lg:grid-cols-3">
          {topBlock("utm-source", `${t("utmHeading")} source`, d.utmSources, "utm_source")}
          {topBlock("utm-medium", `${t("utmHeading")} medium`, d.utmMediums, "utm_medium")}
          {topBlock("utm-campaign", `${t("utmHeading")} campaign`, d.utmCampaigns, "utm_campaign")}
        </div>
      </Section>

      <Section id="technology" title={`${t("browsersHeading")} / ${t("systemsHeading")} / ${t("devicesHeading")} / ${t("languagesHeading")}`}>
        <div className="grid gap-6 lg:grid-cols-2">
          {topBlock("browsers", t("browsersHeading"), d.browsers, t("browsersHeading"))}
          {topBlock("systems", t("systemsHeading"), d.systems, t("systemsHeading"))}
          {topBlock("devices", t("devicesHeading"), d.devices, t("devicesHeading"))}
          {topBlock("languages", t("languagesHeading"), d.languages, t("languagesHeading"))}
        </div>
      </Section>

      <Section id="funnel" title={t("funnelHeading")}>
        <Form method="get" action="/admin" className="flex flex-wrap items-end gap-3">
          <input type="hidden" name="tab" value="analytics" />
          <input type="hidden" name="range" value={d.range} />
          <input type="hidden" name="from" value={d.period.from} />
          <input type="hidden" name="to" value={d.period.to} />
          <div className="w-48">
            <SelectField id="analytics-channel" name="channel" label={t("funnelFilter")} defaultValue={d.channel ?? ""}>
              <option value="">{t("funnelAll")}</option>
              {d.funnel.channels.map((c) => (
                <option key={c} value={c}>
                  {channelLabel(c)}
                </option>
              ))}
            </SelectField>
          </div>
          <div className="w-56">
            <SelectField id="analytics-source" name="source" label={t("funnelSourceFilter")} defaultValue={d.source === null ? "" : d.source || "-"}>
              <option value="">{t("funnelAll")}</option>
              {d.funnel.sources.map((s) => (
                <option key={s || "-"} value={s || "-"}>
                  {s || t("directSource")}
                </option>
              ))}
            </SelectField>
          </div>
          <button type="submit" className="rounded-md border border-slate-300 px-3 py-2 font-medium text-slate-800 hover:bg-slate-50">
            {t("show")}
          </button>
        </Form>
        <ChartWithTable
          chart={<BarChart bars={d.funnel.steps.map((s) => ({ label: t(STEP_KEYS[s.step]), value: s.count }))} />}
          table={
            <table className="w-full text-sm" data-testid="analytics-funnel-table">
              <caption className="sr-only">{t("funnelCaption")}</caption>
              <thead>
                <tr>
                  <th scope="col" className={TH}>{t("step")}</th>
                  <th scope="col" className={`${TH} text-right`}>{t("count")}</th>
                  <th scope="col" className={`${TH} text-right`}>{t("fromPrevious")}</th>
                  <th scope="col" className={`${TH} text-right`}>{t("dropOff")}</th>
                  <th scope="col" className={`${TH} text-right`}>{t("medianTime")}</th>
                  <th scope="col" className={`${TH} text-right`}>{t("p90Time")}</th>
                </tr>
              </thead>
              <tbody>
                {d.funnel.steps.map((s) => (
                  <tr key={s.step} data-testid={`funnel-${s.step}`}>
                    <th scope="row" className={`${TD} text-left font-normal`}>{t(STEP_KEYS[s.step])}</th>
                    <td className={NUM} data-testid={`funnel-${s.step}-count`}>{number.format(s.count)}</td>
                    <td className={NUM}>{s.fromPrevious === null ? "—" : percent.format(s.fromPrevious)}</td>
                    <td className={NUM}>{s.dropOff === null ? "—" : number.format(s.dropOff)}</td>
                    <td className={NUM}>{duration(s.medianS)}</td>
                    <td className={NUM}>{duration(s.p90S)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          }
        />
      </Section>

      <Section id="content" title={t("contentHeading")}>
        <p className="text-sm text-slate-600">{t("contentCaption")}</p>
        {d.content.length ? (
          <div className="overflow-x-auto">
            <table className="w-full text-sm" data-testid="analytics-content-table">
              <thead>
                <tr>
                  <th scope="col" className={TH}>{t("kind")}</th>
                  <th scope="col" className={TH}>{t("page")}</th>
                  <th scope="col" className={`${TH} text-right`}>{t("readers")}</th>
                  <th scope="col" className={`${TH} text-right`}>{t("posted")}</th>
                  <th scope="col" className={`${TH} text-right`}>{t("traded")}</th>
                </tr>
              </thead>
              <tbody>
                {d.content.map((c) => (
                  <tr key={c.path}>
                    <td className={TD}>{kindLabel(c.kind)}</td>
                    <td className={TD}>
                      <a href={c.path} className="text-brand-800 underline" data-testid="analytics-content-title">
                        {c.title ?? c.path}
                      </a>
                      {c.title ? <span className="block break-all text-xs text-slate-600">{c.path}</span> : null}
                    </td>
                    <td className={NUM}>{number.format(c.readers)}</td>
                    <td className={NUM}>{number.format(c.posted)}</td>
                    <td className={NUM}>{number.format(c.traded)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : (
          <p className="text-sm text-slate-600">{t("noData")}</p>
        )}
      </Section>

      <Section id="events" title={t("eventsHeading")}>
        {d.events.length ? (
          <table className="w-full text-sm">
            <thead>
              <tr>
                <th scope="col" className={TH}>{t("event")}</th>
                <th scope="col" className={`${TH} text-right`}>{t("count")}</th>
                <th scope="col" className={`${TH} text-right`}>{t("users")}</th>
              </tr>
            </thead>
            <tbody>
              {d.events.map((e) => (
                <tr key={e.kind}>
                  <td className={TD}>{EVENT_KEYS[e.kind] ? t(EVENT_KEYS[e.kind]) : e.kind}</td>
                  <td className={NUM}>{number.format(e.count)}</td>
                  <td className={NUM}>{number.format(e.users)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : (
          <p className="text-sm text-slate-600">{t("noData")}</p>
        )}
      </Section>

      <Section id="health" title={t("healthHeading")}>
        {d.health.running ? (
          <Figures
            items={[
              [t("healthCounted"), number.format(d.health.collected.counted ?? 0)],
              [t("healthRobots"), number.format(d.health.collected.robot ?? 0)],
              [t("healthOptedOut"), number.format(d.health.collected.opted_out ?? 0)],
              [t("healthBuffered"), number.format(d.health.buffered)],
              [t("healthWritten"), number.format(d.health.written)],
              [t("healthDropped"), number.format(d.health.dropped)],
              [t("healthFailed"), number.format(d.health.failedBatches)],
              [t("healthLastFlush"), d.health.lastFlushAt ? tokyoMediumDateTime(d.health.lastFlushAt, locale) : "—"],
              ...(d.health.operations
                ? [
                    [t("healthSockets"), number.format(d.health.operations.socketsConnected)] as const,
                    [t("healthRequests"), number.format(d.health.operations.requests)] as const,
                    [t("healthSlowRequests"), number.format(d.health.operations.slowRequests)] as const,
                  ]
                : []),
            ]}
          />
        ) : (
          <p className="text-sm text-slate-600">{t("healthNotRunning")}</p>
        )}
        <h3 className="mt-4 text-sm font-bold">{t("outboxHeading")}</h3>
        <Figures
          className="mt-2"
          testId="analytics-outbox"
          items={[
            [t("outboxLag"), t("seconds", { count: Math.round(d.outbox.lagS) })],
            [t("outboxDue"), number.format(d.outbox.due)],
            [t("outboxPending"), number.format(d.outbox.pending)],
            [t("outboxRetrying"), number.format(d.outbox.retrying)],
            [t("outboxFailedDay"), number.format(d.outbox.failedLastDay)],
            [t("outboxSent"), number.format(d.health.deliveries.sent)],
            [t("outboxRetried"), number.format(d.health.deliveries.retried)],
            [t("outboxFailed"), number.format(d.health.deliveries.failed)],
          ]}
        />
      </Section>
    </div>
  );
}

/** Labelled figures of the health panel, as a description list. */
function Figures({ items, className = "", testId }: { items: (readonly [string, string])[]; className?: string; testId?: string }) {
  return (
    <dl className={`grid grid-cols-2 gap-3 text-sm sm:grid-cols-4 ${className}`} data-testid={testId}>
      {items.map(([label, value]) => (
        <div key={label}>
          <dt className="text-slate-600">{label}</dt>
          <dd className="font-bold tabular-nums">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

