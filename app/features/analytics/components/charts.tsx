import type { ReactNode } from "react";

/**
 * Charts as plain SVG rendered with the page (no chart library in the bundle). Each chart is
 * decorative for screen readers (aria-hidden): the table beside it carries the same numbers.
 */

/**
 * A line chart of a time series. The lines are drawn in a stretched SVG, the axis labels and the
 * legend are text of the page: at any width they keep the page's type size (a scaled SVG made them
 * 6 px on a desktop half column), and the last label ends at the chart's edge instead of past it.
 */
export function LineChart({ points, series }: { points: string[]; series: { name: string; label: string; values: number[]; className: string; swatchClassName: string; dashed?: boolean }[] }) {
  const max = Math.max(1, ...series.flatMap((s) => s.values));
  const n = Math.max(1, points.length - 1);
  // Percent of the plot: x from left to right, y from the top.
  const x = (i: number) => (100 * i) / n;
  const y = (v: number) => 100 * (1 - v / max);
  const ticks = [...new Set([0, Math.round(max / 2), max])];
  const labelEvery = Math.max(1, Math.ceil(points.length / 6));
  const labelled = points.map((label, i) => ({ label, i })).filter(({ i }) => i % labelEvery === 0 || i === points.length - 1);
  // The last label is always shown; the one before it goes when they would touch.
  if (labelled.length > 2 && labelled.at(-1)!.i - labelled.at(-2)!.i < labelEvery) labelled.splice(-2, 1);
  return (
    <figure className="space-y-2" aria-hidden="true" data-testid="line-chart">
      <div className="relative ml-10 h-44">
        {ticks.map((t) => (
          <span key={t} className="absolute -left-10 w-8 -translate-y-1/2 text-right text-xs text-slate-600" style={{ top: `${y(t)}%` }} data-testid="line-chart-tick">
            {t}
          </span>
        ))}
        <svg viewBox="0 0 100 100" preserveAspectRatio="none" className="h-full w-full overflow-visible" focusable="false">
          {ticks.map((t) => (
            <line key={t} x1={0} x2={100} y1={y(t)} y2={y(t)} className="stroke-slate-200" vectorEffect="non-scaling-stroke" />
          ))}
          {series.map((s) => (
            <polyline
              key={s.name}
              fill="none"
              strokeWidth={2}
              strokeDasharray={s.dashed ? "6 4" : undefined}
              vectorEffect="non-scaling-stroke"
              className={s.className}
              points={s.values.map((v, i) => `${x(i)},${y(v)}`).join(" ")}
            />
          ))}
        </svg>
      </div>
      <div className="relative ml-10 h-5 text-xs text-slate-600">
        {labelled.map(({ label, i }) => (
          <span
            key={label}
            className={`absolute top-0 whitespace-nowrap ${i === 0 && points.length > 1 ? "" : i === points.length - 1 ? "-translate-x-full" : "-translate-x-1/2"}`}
            style={{ left: `${x(i)}%` }}
            data-testid="line-chart-label"
          >
            {shortLabel(label)}
          </span>
        ))}
      </div>
      <figcaption className="ml-10 flex flex-wrap gap-x-4 gap-y-1 text-sm text-slate-700" data-testid="line-chart-legend">
        {series.map((s) => (
          <span key={s.name} className="inline-flex items-center gap-1.5">
            <span className={`inline-block h-0 w-5 border-t-2 ${s.dashed ? "border-dashed" : ""} ${s.swatchClassName}`} />
            {s.label}
          </span>
        ))}
      </figcaption>
    </figure>
  );
}

/** "2026-12-06" → "12/06"; an hour label stays as it is. */
function shortLabel(label: string): string {
  return /^\d{4}-\d{2}-\d{2}$/.test(label) ? label.slice(5).replace("-", "/") : label;
}

export function BarChart({ bars }: { bars: { label: string; value: number }[] }) {
  const max = Math.max(1, ...bars.map((b) => b.value));
  const row = 22;
  const width = 320;
  const labelWidth = 120;
  return (
    <svg viewBox={`0 0 ${width} ${Math.max(row, bars.length * row)}`} className="h-auto w-full" aria-hidden="true" focusable="false">
      {bars.map((b, i) => (
        <g key={`${b.label}-${i}`}>
          <text x={0} y={i * row + 15} className="fill-slate-700 text-[11px]">
            {b.label.length > 18 ? `${b.label.slice(0, 17)}…` : b.label}
          </text>
          <rect x={labelWidth} y={i * row + 4} height={14} width={Math.max(1, ((width - labelWidth - 40) * b.value) / max)} className="fill-brand-600" rx={2} />
          <text x={width - 2} y={i * row + 15} textAnchor="end" className="fill-slate-700 text-[11px]">
            {b.value}
          </text>
        </g>
      ))}
    </svg>
  );
}

/** A chart with its data table beside it (below on a phone). */
export function ChartWithTable({ chart, table }: { chart: ReactNode; table: ReactNode }) {
  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <div>{chart}</div>
      <div className="overflow-x-auto">{table}</div>
    </div>
  );
}
