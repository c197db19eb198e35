import { articlesFeed } from "../features/articles/feed.server";
import { articlesMessages } from "../features/articles/messages";
import { translate } from "../lib/i18n";
import type { Route } from "./+types/articles.feed";

/** GET /articles/feed.xml — Atom feed of the newest 50 public articles. */
export async function loader({ context }: Route.LoaderArgs) {
  const body = await articlesFeed(context.db, context.env.siteUrl, translate(articlesMessages, "ja", "feedTitle"));
  return new Response(body, { headers: { "Content-Type": "application/atom+xml; charset=utf-8", "Cache-Control": "public, max-age=300" } });
}
