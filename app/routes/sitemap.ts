import { sitemapIndex, streamXml } from "../features/seo/sitemap.server";
import type { Route } from "./+types/sitemap";

/** GET /sitemap.xml: the sitemap index, streamed. */
export function loader({ context }: Route.LoaderArgs) {
  return streamXml(sitemapIndex(context.db, context.env.siteUrl));
}
