import type { ReactNode } from "react";

/**
 * Charts as plain SVG rendered with the page (no chart library in the bundle). Each chart is
 * decorative for screen readers (aria-hidden): the table beside it carries the same numbers.
 */

export function LineChart({ points, series }: { points: string[]; series: { name: string; values: number[]; className: string }[] }) {
  const width = 640;
  const height = 200;
  const pad = { left: 36, right: 8, top: 10, bottom: 24 };
  const max = Math.max(1, ...series.flatMap((s) => s.values));
  const n = Math.max(1, points.length - 1);
  const x = (i: number) => pad.left + ((width - pad.left - pad.right) * i) / n;
  const y = (v: number) => pad.top + (height - pad.top - pad.bottom) * (1 - v / max);
  const ticks = [0, max / 2, max].map((v) => Math.round(v));
  const labelEvery = Math.max(1, Math.ceil(points.length / 8));
  return (
    <svg viewBox={`0 0 ${width} ${height}`} className="h-auto w-full" aria-hidden="true" focusable="false">
      {ticks.map((t) => (
        <g key={t}>
          <line x1={pad.left} x2={width - pad.right} y1={y(t)} y2={y(t)} className="stroke-slate-200" />
          <text x={pad.left - 4} y={y(t) + 4} textAnchor="end" className="fill-slate-500 text-[10px]">
            {t}
          </text>
        </g>
      ))}
      {points.map((label, i) =>
        i % labelEvery === 0 ? (
          <text key={label} x={x(i)} y={height - 6} textAnchor="middle" className="fill-slate-500 text-[10px]">
            {label.length > 5 ? label.slice(5) : label}
          </text>
        ) : null,
      )}
      {series.map((s) => (
        <polyline key={s.name} fill="none" strokeWidth={2} className={s.className} points={s.values.map((v, i) => `${x(i)},${y(v)}`).join(" ")} />
      ))}
    </svg>
  );
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
