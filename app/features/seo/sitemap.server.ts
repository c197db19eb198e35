import { and, count, desc, sql } from "drizzle-orm";
import { openOfferWhere } from "#app/db/open-offers.ts";
import type { Db } from "#app/db/client.server.ts";
import { escapeXml } from "#app/lib/markup.ts";
import { tradeOffers } from "#app/db/schema/trades.ts";
import { cardIndex } from "#app/features/cards/card-index.server.ts";

/** sitemaps.org: at most 50,000 URLs per sitemap file. */
export const SITEMAP_PART_SIZE = 50_000;
/** Rows read per query while a part streams (keyset pages, so memory stays flat). */
const CHUNK = 5_000;

export type SitemapUrl = { path: string; lastmod?: Date | null };

/**
 * One kind of page the sitemap lists. `count` says how many parts it needs; `urls` yields the
 * URLs of one part (0-based) in a stable order, reading the database a chunk at a time.
 *
 * Extension point: a feature with pages of its own registers its source at start-up
 * (`registerSitemapSource`, see app/registrations.server.ts); the sitemap never imports it.
 */
export type SitemapSource = {
  name: string;
  count(db: Db): Promise<number>;
  urls(db: Db, part: number, partSize: number): AsyncIterable<SitemapUrl>;
};

const staticPages: SitemapSource = {
  name: "pages",
  count: async () => 6,
  async *urls() {
    for (const path of ["/", "/cards", "/trades", "/deck-recipes", "/privacy-policy", "/terms"]) yield { path };
  },
};

/** Every pack page and every listable card's page (from the in-memory card index). */
const cards: SitemapSource = {
  name: "cards",
  count: async (db) => {
    const index = await cardIndex(db);
    return index.packs.size + index.cards.length;
  },
  async *urls(db, part, partSize) {
    const index = await cardIndex(db);
    const paths = [
      ...[...index.packs.values()].filter((p) => index.byPack.has(p.id)).map((p) => `/cards?pack=${encodeURIComponent(p.id)}`),
      ...index.cards.map((c) => `/cards/${encodeURIComponent(c.id)}`),
    ];
    for (const path of paths.slice(part * partSize, (part + 1) * partSize)) yield { path };
  },
};


/** Open offers, newest first (the board's index: status, bumped_at desc, id desc). */
const offers: SitemapSource = {
  name: "offers",
  count: async (db) => Number((await db.select({ n: count() }).from(tradeOffers).where(openOfferWhere()))[0]?.n ?? 0),
  async *urls(db, part, partSize) {
    const columns = { id: tradeOffers.id, bumpedAt: tradeOffers.bumpedAt, updatedAt: tradeOffers.updatedAt };
    const order = [desc(tradeOffers.bumpedAt), desc(tradeOffers.id)];
    let emitted = 0;
    let rows = await db.select(columns).from(tradeOffers).where(openOfferWhere()).orderBy(...order).offset(part * partSize).limit(Math.min(CHUNK, partSize));
    while (rows.length > 0) {
      for (const row of rows) yield { path: `/trades/${row.id}`, lastmod: row.updatedAt > row.bumpedAt ? row.updatedAt : row.bumpedAt };
      emitted += rows.length;
      if (emitted >= partSize || rows.length < CHUNK) return;
      const last = rows[rows.length - 1];
      rows = await db
        .select(columns)
        .from(tradeOffers)
        .where(and(openOfferWhere(), sql`(${tradeOffers.bumpedAt}, ${tradeOffers.id}) < (${last.bumpedAt.toISOString()}::timestamptz, ${last.id}::uuid)`))
        .orderBy(...order)
        .limit(Math.min(CHUNK, partSize - emitted));
    }
  },
};

/** The sources in the order the index lists them: this feature's own, then the registered ones. */
export const SITEMAP_SOURCES: SitemapSource[] = [staticPages, cards, offers];

/** Adds a feature's source (once per name; a second registration of a name is ignored). */
export function registerSitemapSource(source: SitemapSource): void {
  if (!SITEMAP_SOURCES.some((known) => known.name === source.name)) SITEMAP_SOURCES.push(source);
}

export type SitemapPart = { source: SitemapSource; part: number };

/** `offers-2.xml` → the offers source, part index 1; null for anything else. */
export function parseSitemapPart(name: string): SitemapPart | null {
  const match = /^([a-z]+)-([1-9]\d{0,5})\.xml$/.exec(name);
  const source = match ? SITEMAP_SOURCES.find((s) => s.name === match[1]) : undefined;
  return source && match ? { source, part: Number(match[2]) - 1 } : null;
}

const xml = escapeXml;

/** The sitemap index: one entry per part of every source (an empty source has none). */
export async function* sitemapIndex(db: Db, siteUrl: string, partSize = SITEMAP_PART_SIZE): AsyncGenerator<string> {
  yield '<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n';
  for (const source of SITEMAP_SOURCES) {
    const parts = Math.ceil((await source.count(db)) / partSize);
    for (let part = 1; part <= parts; part++) yield `<sitemap><loc>${xml(`${siteUrl}/sitemaps/${source.name}-${part}.xml`)}</loc></sitemap>\n`;
  }
  yield "</sitemapindex>\n";
}

/** One part: a urlset of at most `partSize` URLs, written as the rows arrive. */
export async function* sitemapPart(db: Db, siteUrl: string, { source, part }: SitemapPart, partSize = SITEMAP_PART_SIZE): AsyncGenerator<string> {
  yield '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n';
  let buffer = "";
  for await (const url of source.urls(db, part, partSize)) {
    buffer += `<url><loc>${xml(siteUrl + url.path)}</loc>${url.lastmod ? `<lastmod>${url.lastmod.toISOString()}</lastmod>` : ""}</url>\n`;
    if (buffer.length > 64 * 1024) {
      yield buffer;
      buffer = "";
    }
  }
  yield `${buffer}</urlset>\n`;
}

/** An XML answer streamed from a generator; a failure midway cuts the stream (never half an answer as a 200 that looks whole). */
export function streamXml(chunks: AsyncGenerator<string>, headers: Record<string, string> = {}): Response {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = await chunks.next();
        if (next.done) controller.close();
        else controller.enqueue(encoder.encode(next.value));
      } catch (error) {
        controller.error(error);
      }
    },
    async cancel() {
      await chunks.return(undefined);
    },
  });
  return new Response(body, { headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=3600", ...headers } });
}
