import { sql } from "drizzle-orm";
import type { Db } from "#app/db/client.server.ts";
import { siteSettings } from "#app/db/schema/content.ts";
import { EMPTY_SITE_SETTINGS, type SiteSettings } from "./settings.schema";
import { createCache, scopeOf } from "#app/lib/cache.server.ts";
import { publishChange, onChange } from "#app/lib/change-bus.server.ts";

export type { SiteSettings } from "./settings.schema";

/**
 * Every page's head reads the settings, so they are kept in the one cache module per database
 * handle; a save here — or, through the relay, on another instance — empties it, so the next
 * page shows the change. SETTINGS_TTL_MS covers writes made outside the app (SQL by hand).
 */
export const SETTINGS_TTL_MS = 60_000;

const settingsCache = createCache<SiteSettings>({ name: "site-settings", max: 16, ttlMs: SETTINGS_TTL_MS });
onChange("settings", () => settingsCache.clear());

const COLUMNS = {
  metaDescription: siteSettings.metaDescription,
  seoKeywords: siteSettings.seoKeywords,
  ogTitle: siteSettings.ogTitle,
  ogDescription: siteSettings.ogDescription,
  ogImage: siteSettings.ogImage,
};

async function loadSiteSettings(db: Db): Promise<SiteSettings> {
  const [row] = await db.select(COLUMNS).from(siteSettings).where(sql`${siteSettings.id} = 1`);
  return row ?? { ...EMPTY_SITE_SETTINGS };
}

/** docs/product-rules.md §7 "Settings document settings/site": the five fields ("" when never saved). */
export function getSiteSettings(db: Db): Promise<SiteSettings> {
  return settingsCache.remember(scopeOf(db), () => loadSiteSettings(db));
}

/**
 * docs/product-rules.md §7 "Write settings/site, replacing it with the five settings fields": one upsert of
 * the single row, then every cache of it (and of pages showing it) is told.
 */
export async function saveSiteSettings(db: Db, input: SiteSettings, userId: string): Promise<SiteSettings> {
  const values = { ...input, updatedBy: userId, updatedAt: new Date() };
  const [row] = await db
    .insert(siteSettings)
    .values({ id: 1, ...values })
    .onConflictDoUpdate({ target: siteSettings.id, set: values })
    .returning(COLUMNS);
  publishChange("settings");
  return row;
}
