import { PagePlaceholder } from "../components/ui/page-placeholder";
import { pageMeta } from "../lib/meta";
import type { Route } from "./+types/admin.deck-recipes.edit";

export const meta: Route.MetaFunction = () => pageMeta("デッキ作成");

export default function Page() {
  return <PagePlaceholder title="デッキ作成"></PagePlaceholder>;
}
