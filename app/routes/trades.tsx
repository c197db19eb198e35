import { PagePlaceholder } from "../components/ui/page-placeholder";
import { pageMeta } from "../lib/meta";
import type { Route } from "./+types/trades";

export const meta: Route.MetaFunction = () => pageMeta("トレード掲示板");

export default function Page() {
  return <PagePlaceholder title="トレード掲示板"></PagePlaceholder>;
}
