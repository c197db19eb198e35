import type { Db } from "../../db/client.server";
import { listAdminArticles } from "../articles/articles.server";
import type { ArticlesTabData } from "../articles/components/articles-panel";
import { listPacks } from "../cards/cards.server";
import type { CardsTabData } from "../cards/components/card-import-form";
import type { Viewer } from "../users/session.server";
import type { SettingsTabData } from "../settings/components/settings-panel";
import { getSiteSettings } from "../settings/settings.server";
import { reportsTabData } from "../moderation/moderation.server";
import { getDatabaseStats } from "./admin.server";
import { tradeRulesPageData } from "../trades/trade-rules.server";
import type { DecksTabData } from "../decks/components/decks-panel";
import { listAdminDecks } from "../decks/decks.server";
import { deckEditorData } from "../decks/editor-data.server";
import { localeFromCookie } from "../../lib/i18n";
import { errorFields, type Logger } from "../../lib/logger.server";
import { AnalyticsQuerySchema, analyticsTabData } from "../analytics/dashboard.server";
import { readQuery } from "../../lib/input.server";
import { z } from "../../lib/zod";
import { healthFigures } from "../analytics/health.server";

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
