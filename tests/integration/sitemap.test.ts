import { sql } from "drizzle-orm";
import type { AppLoadContext } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedCatalogue } from "#app/features/cards/catalogue.server.ts";
import { cardIndex } from "#app/features/cards/card-index.server.ts";
import { loadEnv } from "#app/lib/env.server.ts";
import { loader as robotsLoader } from "#app/routes/robots.ts";
import { loader as partLoader } from "#app/routes/sitemap-part.ts";
import { loader as indexLoader } from "#app/routes/sitemap.ts";
import { createUser } from "#tests/support/factories.ts";
import { createTestDatabase, type TestDatabase } from "#tests/support/test-db.ts";

const SITE = "https://torepoke.example";
const OPEN = 100_050;
let database: TestDatabase;
let context: AppLoadContext;

beforeAll(async () => {
  database = await createTestDatabase();
  context = { db: database.db, env: loadEnv({ SITE_URL: SITE, BETTER_AUTH_SECRET: "m".repeat(40) }), cspNonce: "n" };
  await seedCatalogue(database.db);
  const owner = await createUser(database.db);
  // A board past 100,000 open offers, plus offers that must not be listed: closed, expired by
  // status, and open but past their expiry.
  await database.db.execute(sql`
    insert into trade_offers (owner_id, status, expires_at, bumped_at)
    select ${owner.id}, 'open', now() + interval '2 days', now() - (g || ' seconds')::interval from generate_series(1, ${OPEN}) g`);
  await database.db.execute(sql`
    insert into trade_offers (owner_id, status, expires_at)
    select ${owner.id}, s, now() + interval '2 days' from unnest(array['closed','completed','expired','negotiating']) s`);
  await database.db.execute(sql`insert into trade_offers (owner_id, status, expires_at) values (${owner.id}, 'open', now() - interval '1 hour')`);
}, 180_000);
afterAll(async () => {
  await database?.close();
});

const args = (params: Record<string, string> = {}) => ({ request: new Request(`${SITE}/x`), params, context }) as never;
const locs = (xml: string) => [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);

describe("/sitemap.xml", () => {
  it("is a streamed sitemap index whose parts hold at most 50,000 URLs, with every open offer exactly once", async () => {
    const index = (await indexLoader(args())) as Response;
    expect(index.status).toBe(200);
    expect(index.headers.get("content-type")).toBe("application/xml; charset=utf-8");
    expect(index.body).toBeInstanceOf(ReadableStream);
    const indexXml = await index.text();
    expect(indexXml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<sitemapindex xmlns="http:\/\/www.sitemaps.org\/schemas\/sitemap\/0.9">/);
    const parts = locs(indexXml);
    expect(parts).toEqual([
      `${SITE}/sitemaps/pages-1.xml`,
      `${SITE}/sitemaps/cards-1.xml`,
      `${SITE}/sitemaps/offers-1.xml`,
      `${SITE}/sitemaps/offers-2.xml`,
      `${SITE}/sitemaps/offers-3.xml`,
    ]);

    const offerUrls: string[] = [];
    for (const part of parts.filter((p) => p.includes("/offers-"))) {
      const res = (await partLoader(args({ part: part.split("/").pop()! }))) as Response;
      expect(res.status).toBe(200);
      const xml = await res.text();
      expect(xml).toMatch(/^<\?xml[^>]+>\n<urlset xmlns="http:\/\/www.sitemaps.org\/schemas\/sitemap\/0.9">\n/);
      expect(xml.endsWith("</urlset>\n")).toBe(true);
      const urls = locs(xml);
      expect(urls.length).toBeLessThanOrEqual(50_000);
      expect((xml.match(/<lastmod>\d{4}-\d\d-\d\dT[\d:.]+Z<\/lastmod>/g) ?? []).length).toBe(urls.length);
      offerUrls.push(...urls);
    }
    expect(offerUrls.length).toBe(OPEN);
    expect(new Set(offerUrls).size).toBe(OPEN);
  }, 120_000);

  it("lists the fixed pages, every pack page and every listable card", async () => {
    const pages = locs(await ((await partLoader(args({ part: "pages-1.xml" }))) as Response).text());
    expect(pages).toEqual([`${SITE}/`, `${SITE}/cards`, `${SITE}/trades`, `${SITE}/deck-recipes`, `${SITE}/privacy-policy`, `${SITE}/terms`]);
    const cards = locs(await ((await partLoader(args({ part: "cards-1.xml" }))) as Response).text());
    const index = await cardIndex(database.db);
    expect(cards).toContain(`${SITE}/cards/${index.cards[0].id}`);
    expect(cards.filter((u) => u.startsWith(`${SITE}/cards/`))).toHaveLength(index.cards.length);
    expect(cards.filter((u) => u.includes("?pack=")).length).toBeGreaterThan(5);
  });

  it("answers 404 for a part that does not exist", async () => {
    for (const part of ["offers-4.xml", "offers-0.xml", "nothing-1.xml", "cards-1.txt", "../etc-1.xml"]) {
      expect(((await partLoader(args({ part }))) as Response).status).toBe(404);
    }
  });
});

describe("/robots.txt", () => {
  it("keeps crawlers out of private areas and points to the sitemap", async () => {
    const res = robotsLoader(args());
    expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    const text = await res.text();
    expect(text.startsWith("User-agent: *\n")).toBe(true);
    for (const path of ["/admin", "/api/", "/chat/", "/profile", "/login", "/signup"]) expect(text).toContain(`Disallow: ${path}\n`);
    expect(text).not.toMatch(/Disallow: \/\n/);
    expect(text).toContain(`Sitemap: ${SITE}/sitemap.xml`);
  });
});
