import type { ComponentType } from "react";
import { ArticlesPanel } from "#app/features/articles/components/articles-panel.tsx";
import { CardsAdminPanel } from "#app/features/cards/components/card-import-form.tsx";
import { DecksPanel } from "#app/features/decks/components/decks-panel.tsx";
import { ReportsPanel } from "#app/features/moderation/components/reports-panel.tsx";
import { SettingsPanel } from "#app/features/settings/components/settings-panel.tsx";
import { DatabasePanel } from "#app/features/admin/components/database-panel.tsx";
import { AnalyticsPanel } from "#app/features/analytics/components/analytics-panel.tsx";
import { TradeRulesPanel } from "#app/features/trades/components/trade-rules-panel.tsx";
import type { AdminMessageKey } from "./messages";
import { z } from "#app/lib/zod.ts";

export type AdminTab = {
  /** The `?tab=` value. */
  id: string;
  /** Its label in the admin catalogue. */
  label: AdminMessageKey;
  /** Receives what ADMIN_TAB_DATA[id] returned (undefined when the tab has no data loader). */
  Panel?: ComponentType<{ data: unknown }>;
};

/**
 * Client side of the admin tab registry (docs/product-rules.md §2 "Admin page", in its order; articles is the
 * default). A tab without a Panel says honestly that it is being prepared. To add a tab's body,
 * set its Panel here and, if it needs data, add ADMIN_TAB_DATA[id] in tab-data.server.ts.
 */
export const ADMIN_TABS: AdminTab[] = [
  { id: "articles", label: "tabArticles", Panel: ArticlesPanel },
  { id: "database", label: "tabDatabase", Panel: DatabasePanel },
  { id: "decks", label: "tabDecks", Panel: DecksPanel },
  { id: "cards", label: "tabCards", Panel: CardsAdminPanel },
  { id: "settings", label: "tabSettings", Panel: SettingsPanel },
  { id: "reports", label: "tabReports", Panel: ReportsPanel },
  { id: "analytics", label: "tabAnalytics", Panel: AnalyticsPanel },
  { id: "trade-rules", label: "tabTradeRules", Panel: TradeRulesPanel },
];

export const DEFAULT_ADMIN_TAB = "articles";

/** The admin page's query: `?tab=` one of ADMIN_TABS, anything else the default tab. */
export const AdminTabQuerySchema = z.object({
  tab: z
    .string()
    .refine((wanted) => ADMIN_TABS.some((tab) => tab.id === wanted))
    .catch(DEFAULT_ADMIN_TAB),
});
