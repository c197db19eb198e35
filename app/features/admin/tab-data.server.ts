import type { Db } from "../../db/client.server";
import type { Viewer } from "../users/session.server";
import { reportsTabData } from "../moderation/moderation.server";
import { getDatabaseStats } from "./admin.server";

export type AdminTabDataArgs = { db: Db; viewer: Viewer; url: URL };

/**
 * Server side of the admin tab registry (the client side is tabs.tsx): the data a tab needs,
 * loaded only when that tab is selected and only after requireAdmin. A tab without an entry
 * gets no data. To add a tab's data, add one entry with the same id as in tabs.tsx.
 */
export const ADMIN_TAB_DATA: Record<string, (args: AdminTabDataArgs) => Promise<unknown>> = {
  database: ({ db }) => getDatabaseStats(db),
  // ?reports=all shows handled reports too; ?done=1 after one was resolved.
  reports: ({ db, url }) => reportsTabData(db, { filter: url.searchParams.get("reports") === "all" ? "all" : "open", done: url.searchParams.get("done") === "1" }),
};
