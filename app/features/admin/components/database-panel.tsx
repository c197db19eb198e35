import { useLocale, useT } from "#app/lib/i18n.tsx";
import type { DatabaseStats } from "#app/features/admin/admin.server.ts";
import { adminMessages } from "#app/features/admin/messages.ts";

/** docs/product-rules.md §2 admin tab 2: three statistics tiles. */
export function DatabasePanel({ data }: { data: unknown }) {
  const t = useT(adminMessages);
  const locale = useLocale();
  const stats = data as DatabaseStats;
  const number = new Intl.NumberFormat(locale === "en" ? "en-US" : "ja-JP");
  const tiles = [
    { key: "users", label: t("statsUsers"), value: stats.users },
    { key: "trades", label: t("statsTrades"), value: stats.trades },
    { key: "chatRooms", label: t("statsChatRooms"), value: stats.chatRooms },
  ];
  return (
    <dl className="grid gap-4 sm:grid-cols-3">
      {tiles.map((tile) => (
        <div key={tile.key} className="rounded-lg border border-slate-200 bg-white p-5" data-testid={`stat-${tile.key}`}>
          <dt className="text-sm font-medium text-slate-600">{tile.label}</dt>
          <dd className="mt-1 text-3xl font-bold">{number.format(tile.value)}</dd>
        </div>
      ))}
    </dl>
  );
}
