import { and, asc, count, eq, gt } from "drizzle-orm";
import type { Db } from "#app/db/client.server.ts";
import { decks } from "#app/db/schema/decks.ts";

/** Rows read per query while a sitemap part streams. */
const CHUNK = 5_000;

/**
 * Public deck recipes for the sitemap (registered with features/seo at start-up, app/registrations.server.ts): `/deck-recipes/{slug}`
 * with lastmod = updated_at, in slug order, read a chunk at a time by keyset.
 */
export const deckSitemapSource = {
  name: "decks",
  count: async (db: Db) => Number((await db.select({ n: count() }).from(decks).where(eq(decks.isPublic, true)))[0]?.n ?? 0),
  async *urls(db: Db, part: number, partSize: number) {
    const columns = { slug: decks.slug, updatedAt: decks.updatedAt };
    let emitted = 0;
    let rows = await db.select(columns).from(decks).where(eq(decks.isPublic, true)).orderBy(asc(decks.slug)).offset(part * partSize).limit(Math.min(CHUNK, partSize));
    while (rows.length > 0) {
      for (const row of rows) yield { path: `/deck-recipes/${encodeURIComponent(row.slug)}`, lastmod: row.updatedAt };
      emitted += rows.length;
      if (emitted >= partSize || rows.length < CHUNK) return;
      const last = rows[rows.length - 1].slug;
      rows = await db.select(columns).from(decks).where(and(eq(decks.isPublic, true), gt(decks.slug, last))).orderBy(asc(decks.slug)).limit(Math.min(CHUNK, partSize - emitted));
    }
  },
};
