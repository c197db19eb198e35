import type { Db } from "#app/db/client.server.ts";
import { listAdminArticles } from "#app/features/articles/articles.server.ts";
import type { ArticlesTabData } from "#app/features/articles/components/articles-panel.tsx";
import { listPacks } from "#app/features/cards/cards.server.ts";
import type { CardsTabData } from "#app/features/cards/components/card-import-form.tsx";
import type { Viewer } from "#app/features/users/session.server.ts";
import type { SettingsTabData } from "#app/features/settings/components/settings-panel.tsx";
import { getSiteSettings } from "#app/features/settings/settings.server.ts";
import { reportsTabData } from "#app/features/moderation/moderation.server.ts";
import { getDatabaseStats } from "./admin.server";
import { tradeRulesPageData } from "#app/features/trades/trade-rules.server.ts";
import type { DecksTabData } from "#app/features/decks/components/decks-panel.tsx";
import { listAdminDecks } from "#app/features/decks/decks.server.ts";
import { deckEditorData } from "#app/features/decks/editor-data.server.ts";
import { localeFromCookie } from "#app/lib/i18n.tsx";
import { errorFields, type Logger } from "#app/lib/logger.server.ts";
import { AnalyticsQuerySchema, analyticsTabData } from "#app/features/analytics/dashboard.server.ts";
import { readQuery } from "#app/lib/input.server.ts";
import { z } from "#app/lib/zod.ts";
import { healthFigures } from "#app/features/analytics/health.server.ts";

/** The reports tab's query: ?reports=all shows handled reports too; ?done=1 after one was resolved. */
const ReportsTabQuerySchema = z.object({ reports: z.enum(["open", "all"]).catch("open"), done: z.string().optional() });

export type AdminTabDataArgs = { db: Db; viewer: Viewer; request: Request; log: Logger };

/**
 * Server side of the admin tab registry (the client side is tabs.tsx): the data a tab needs,
 * loaded only when that tab is selected and only after requireAdmin. A tab without an entry
 * gets no data. To add a tab's data, add one entry with the same id as in tabs.tsx.
 */
export const ADMIN_TAB_DATA: Record<string, (args: AdminTabDataArgs) => Promise<unknown>> = {
  // docs/product-rules.md §8 記事の取得に失敗しました is the tab's own message: a failed list read shows it in the tab.
  articles: async ({ db, log }): Promise<ArticlesTabData> => {
    const [articles, packs] = await Promise.all([
      listAdminArticles(db).catch((error: unknown) => {
        log.error("articles could not be read", errorFields(error));
        return null;
      }),
      listPacks(db),
    ]);
    return { articles, packs: packs.map((pack) => ({ id: pack.id, name: pack.nameJa })) };
  },
  database: ({ db }) => getDatabaseStats(db),
  // カード管理: the import's pack chooser.
  cards: async ({ db }): Promise<CardsTabData> => ({ packs: (await listPacks(db)).map((pack) => ({ id: pack.id, name: pack.nameJa })) }),
  analytics: ({ db, request }) => analyticsTabData(db, readQuery(request, AnalyticsQuerySchema), healthFigures()),
  "trade-rules": ({ db }) => tradeRulesPageData(db),
  reports: ({ db, request }) => {
    const { reports, done } = readQuery(request, ReportsTabQuerySchema);
    return reportsTabData(db, { filter: reports, done: done === "1" });
  },
  // docs/product-rules.md §8 デッキの取得に失敗しました is the tab's own message, not an error page.
  decks: ({ db, request, log }) =>
    Promise.all([listAdminDecks(db), deckEditorData(db, localeFromCookie(request.headers.get("cookie")))]).then(
      ([decks, editor]): DecksTabData => ({ decks, ...editor }),
      (error: unknown): DecksTabData => {
        log.error("decks could not be read", errorFields(error));
        return { loadError: true };
      },
    ),
  // docs/product-rules.md §8 設定の取得中にエラーが発生しました。 is the tab's own message, not an error page.
  settings: ({ db, log }) =>
    getSiteSettings(db).then(
      (settings): SettingsTabData => ({ settings }),
      (error: unknown): SettingsTabData => {
        log.error("site settings could not be read", errorFields(error));
        return { loadError: true };
      },
    ),
};
