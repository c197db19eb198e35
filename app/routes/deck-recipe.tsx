import { PagePlaceholder } from "../components/ui/page-placeholder";
import { seoMeta } from "../lib/seo";
import type { Route } from "./+types/deck-recipe";

export const meta: Route.MetaFunction = (args) => seoMeta(args, { title: "デッキレシピ", noindex: true });

export default function Page() {
  return <PagePlaceholder title="デッキレシピ"><p>デッキレシピが見つかりません</p></PagePlaceholder>;
}
