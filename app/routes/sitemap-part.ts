import { parseSitemapPart, SITEMAP_PART_SIZE, sitemapPart, streamXml } from "#app/features/seo/sitemap.server.ts";
import type { Route } from "./+types/sitemap-part";

/** GET /sitemaps/{source}-{n}.xml: one part of the sitemap, at most 50,000 URLs, streamed. */
export async function loader({ params, context }: Route.LoaderArgs) {
  const part = parseSitemapPart(params.part);
  if (!part) return new Response("Not Found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  const total = await part.source.count(context.db);
  if (part.part >= Math.ceil(total / SITEMAP_PART_SIZE)) return new Response("Not Found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  return streamXml(sitemapPart(context.db, context.env.siteUrl, part));
}
