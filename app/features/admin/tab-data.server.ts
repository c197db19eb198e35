import type { Db } from "../../db/client.server";
import type { Viewer } from "../users/session.server";
import type { SettingsTabData } from "../settings/components/settings-panel";
import { getSiteSettings } from "../settings/settings.server";
import { reportsTabData } from "../trades/trades.server";
import { getDatabaseStats } from "./admin.server";

export type AdminTabDataArgs = { db: Db; viewer: Viewer; url: URL };

/**
 * Server side of the admin tab registry (the client side is tabs.tsx): the data a tab needs,
 * loaded only when that tab is selected and only after requireAdmin. A tab without an entry
 * gets no data. To add a tab's data, add one entry with the same id as in tabs.tsx.
 */
export const ADMIN_TAB_DATA: Record<string, (args: AdminTabDataArgs) => Promise<unknown>> = {
  database: ({ db }) => getDatabaseStats(db),
  reports: ({ db, url }) => reportsTabData(db, url),
  // SPEC.md §8 設定の取得中にエラーが発生しました。 is the tab's own message, not an error page.
  settings: ({ db }) =>
    getSiteSettings(db).then(
      (settings): SettingsTabData => ({ settings }),
      (error: unknown): SettingsTabData => {
        console.error("site settings could not be read", error);
        return { loadError: true };
      },
    ),
};
