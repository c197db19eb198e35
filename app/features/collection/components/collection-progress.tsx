import { useT } from "../../../lib/i18n";
import { collectionMessages } from "../messages";
import type { ProgressRow } from "../collection.server";

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
