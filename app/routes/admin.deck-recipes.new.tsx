import { PagePlaceholder } from "../components/ui/page-placeholder";
import { seoMeta } from "../lib/seo";
import type { Route } from "./+types/admin.deck-recipes.new";

export const meta: Route.MetaFunction = (args) => seoMeta(args, { title: "デッキ作成", noindex: true });

export default function Page() {
  return <PagePlaceholder title="デッキ作成"></PagePlaceholder>;
}
