import { PagePlaceholder } from "../components/ui/page-placeholder";
import { seoMeta } from "../lib/seo";
import type { Route } from "./+types/deck-recipes";

// An empty list (the feature is still being built) stays out of search results.
export const meta: Route.MetaFunction = (args) => seoMeta(args, { title: "デッキレシピ", breadcrumbs: [{ name: "デッキレシピ", path: "/deck-recipes" }], noindex: true });

export default function Page() {
  return <PagePlaceholder title="デッキレシピ"><p>デッキレシピが見つかりません</p></PagePlaceholder>;
}
