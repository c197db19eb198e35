import { sitemapIndex, streamXml } from "#app/features/seo/sitemap.server.ts";
import type { Route } from "./+types/sitemap";

/** GET /sitemap.xml: the sitemap index, streamed. */
export function loader({ context }: Route.LoaderArgs) {
  return streamXml(sitemapIndex(context.db, context.env.siteUrl));
}
