import { sitemapIndex, streamXml } from "../features/seo/sitemap.server";
import type { Route } from "./+types/sitemap";

/** GET /sitemap.xml: the sitemap index (DESIGN.md §5), streamed. */
export function loader({ context }: Route.LoaderArgs) {
  return streamXml(sitemapIndex(context.db, context.env.siteUrl));
}
