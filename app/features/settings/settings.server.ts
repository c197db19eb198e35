import { sql } from "drizzle-orm";
import type { Db } from "../../db/client.server";
import { siteSettings } from "../../db/schema/content";
import { EMPTY_SITE_SETTINGS, type SiteSettings } from "./settings.schema";
import { noteSettingsChange, settingsVersion } from "./settings-version.server";

export type { SiteSettings } from "./settings.schema";

/**
 * Every page's head reads the settings, so they are held in memory per database handle and
 * settings version: a save here (or, through the relay, on another instance) is visible on the
 * next request. SETTINGS_TTL_MS covers writes made outside the app (SQL by hand).
 */
export const SETTINGS_TTL_MS = 60_000;

type Entry = { value: Promise<SiteSettings>; version: number; expires: number };
const cached = new WeakMap<Db, Entry>();

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

/** SPEC.md §7 "Settings document settings/site": the five fields ("" when never saved). */
export function getSiteSettings(db: Db): Promise<SiteSettings> {
  const now = Date.now();
  const version = settingsVersion();
  const hit = cached.get(db);
  if (hit && hit.version === version && hit.expires > now) return hit.value;
  const entry: Entry = { value: loadSiteSettings(db), version, expires: now + SETTINGS_TTL_MS };
  cached.set(db, entry);
  // A failed read is not kept: the next request asks again.
  entry.value.catch(() => {
    if (cached.get(db) === entry) cached.delete(db);
  });
  return entry.value;
}

/**
 * SPEC.md §7 "Write settings/site, replacing it with the five settings fields": one upsert of
 * the single row, then every cache of it (and of pages showing it) is told.
 */
export async function saveSiteSettings(db: Db, input: SiteSettings, userId: string): Promise<SiteSettings> {
  const values = { ...input, updatedBy: userId, updatedAt: new Date() };
  const [row] = await db
    .insert(siteSettings)
    .values({ id: 1, ...values })
    .onConflictDoUpdate({ target: siteSettings.id, set: values })
    .returning(COLUMNS);
  noteSettingsChange();
  return row;
}
