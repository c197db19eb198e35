import { sitemapIndex, streamXml } from "../features/seo/sitemap.server";
import type { Route } from "./+types/sitemap";
import { registerFeatureLinks } from "../registrations.server";

/** GET /sitemap.xml: the sitemap index (DESIGN.md §5), streamed. */
export function loader({ context }: Route.LoaderArgs) {
  registerFeatureLinks();
  return streamXml(sitemapIndex(context.db, context.env.siteUrl));
}
