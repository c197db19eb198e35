import { PagePlaceholder } from "../components/ui/page-placeholder";
import { pageMeta } from "../lib/meta";
import type { Route } from "./+types/trades.new";

export const meta: Route.MetaFunction = () => pageMeta("トレードを募集する");

export default function Page() {
  return <PagePlaceholder title="トレードを募集する"></PagePlaceholder>;
}
