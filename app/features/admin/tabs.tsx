import type { ComponentType } from "react";
import type { Locale } from "../../lib/i18n";
import { ArticlesPanel } from "../articles/components/articles-panel";
import { CardImportForm } from "../cards/components/card-import-form";
import { DecksPanel } from "../decks/components/decks-panel";
import { SettingsPanel } from "../settings/components/settings-panel";
import { ReportsPanel } from "../trades/components/reports-panel";
import { DatabasePanel } from "./components/database-panel";

export type AdminTab = {
  /** The `?tab=` value. */
  id: string;
  label: Record<Locale, string>;
  /** Receives what ADMIN_TAB_DATA[id] returned (undefined when the tab has no data loader). */
  Panel?: ComponentType<{ data: unknown }>;
};

/**
 * Client side of the admin tab registry (SPEC.md §2 "Admin page", in its order; articles is the
 * default). A tab without a Panel says honestly that it is being prepared. To add a tab's body,
 * set its Panel here and, if it needs data, add ADMIN_TAB_DATA[id] in tab-data.server.ts.
 */
export const ADMIN_TABS: AdminTab[] = [
  { id: "articles", label: { ja: "記事管理", en: "Articles" }, Panel: ArticlesPanel },
  { id: "database", label: { ja: "データベース", en: "Database" }, Panel: DatabasePanel },
  { id: "decks", label: { ja: "デッキ管理", en: "Decks" }, Panel: DecksPanel },
  { id: "cards", label: { ja: "カード管理", en: "Cards" }, Panel: CardImportForm },
  { id: "settings", label: { ja: "サイト設定", en: "Site settings" }, Panel: SettingsPanel },
  { id: "reports", label: { ja: "通報", en: "Reports" }, Panel: ReportsPanel },
];

export const DEFAULT_ADMIN_TAB = "articles";

export function adminTabFromUrl(url: URL): string {
  const wanted = url.searchParams.get("tab");
  return ADMIN_TABS.some((tab) => tab.id === wanted) ? (wanted as string) : DEFAULT_ADMIN_TAB;
}
