import { PagePlaceholder } from "../components/ui/page-placeholder";
import { pageMeta } from "../lib/meta";
import type { Route } from "./+types/deck-recipe";

export const meta: Route.MetaFunction = () => pageMeta("デッキレシピ");

export default function Page() {
  return <PagePlaceholder title="デッキレシピ"><p>デッキレシピが見つかりません</p></PagePlaceholder>;
}
