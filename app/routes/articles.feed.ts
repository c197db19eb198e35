import { articlesFeed } from "#app/features/articles/feed.server.ts";
import { articlesMessages } from "#app/features/articles/messages.ts";
import { translate } from "#app/lib/i18n.tsx";
import type { Route } from "./+types/articles.feed";

/** GET /articles/feed.xml — Atom feed of the newest 50 public articles. */
export async function loader({ context }: Route.LoaderArgs) {
  const body = await articlesFeed(context.db, context.env.siteUrl, translate(articlesMessages, "ja", "feedTitle"));
  return new Response(body, { headers: { "Content-Type": "application/atom+xml; charset=utf-8", "Cache-Control": "public, max-age=300" } });
}
