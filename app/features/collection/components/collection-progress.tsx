import { useT } from "#app/lib/i18n.tsx";
import { collectionMessages } from "#app/features/collection/messages.ts";
import type { ProgressRow } from "#app/features/collection/collection.server.ts";

/** One owned/total line with its bar: the text is what a screen reader reads, the bar is decoration. */
export function ProgressLine({ label, row }: { label: string; row: ProgressRow }) {
  const t = useT(collectionMessages);
  return (
    <li className="text-sm">
      <div className="flex justify-between gap-2">
        <span className="truncate">{label}</span>
        <span className="shrink-0 tabular-nums text-slate-800">{t("progressLine", { owned: row.owned, total: row.total, percent: row.percent })}</span>
      </div>
      <div aria-hidden="true" className="mt-0.5 h-1.5 rounded bg-slate-200">
        <div className="h-1.5 rounded bg-brand-600" style={{ width: `${row.percent}%` }} />
      </div>
    </li>
  );
}

export function ProgressList({ heading, rows }: { heading: string; rows: { key: string; label: string; row: ProgressRow }[] }) {
  if (!rows.length) return null;
  return (
    <div>
      <h3 className="text-sm font-bold text-slate-800">{heading}</h3>
      <ul className="mt-1 space-y-1.5">
        {rows.map((r) => (
          <ProgressLine key={r.key} label={r.label} row={r.row} />
        ))}
      </ul>
    </div>
  );
}

export type PublicProgress = (ProgressRow & { nameJa: string; nameEn: string })[];

/**
 * 図鑑の埋まり具合 of another player (the offer page's owner), shown only when they chose to
 * (プロフィールに図鑑の埋まり具合を表示する): the total, and each set they own a card of.
 */
export function PublicProgressLine({ progress, locale }: { progress: PublicProgress; locale: "ja" | "en" }) {
  const t = useT(collectionMessages);
  const owned = progress.reduce((n, r) => n + r.owned, 0);
  const total = progress.reduce((n, r) => n + r.total, 0);
  const percent = total > 0 ? Math.floor((owned * 100) / total) : 0;
  const started = progress.filter((r) => r.owned > 0);
  return (
    <details className="text-sm text-slate-700" data-testid="collection-progress">
      <summary className="cursor-pointer">
        <span className="font-medium">{t("profileProgressHeading")}</span>：{t("progressLine", { owned, total, percent })}
      </summary>
      <ul className="mt-1 space-y-1.5 pl-4">
        {started.map((r) => (
          <ProgressLine key={r.key} label={`${locale === "en" ? r.nameEn : r.nameJa}（${r.key}）`} row={r} />
        ))}
      </ul>
    </details>
  );
}
