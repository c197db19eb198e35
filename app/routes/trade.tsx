import { PagePlaceholder } from "../components/ui/page-placeholder";
import { pageMeta } from "../lib/meta";
import type { Route } from "./+types/trade";

export const meta: Route.MetaFunction = () => pageMeta("トレード");

export default function Page() {
  return <PagePlaceholder title="トレード"></PagePlaceholder>;
}
