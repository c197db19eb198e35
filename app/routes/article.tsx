import { PagePlaceholder } from "../components/ui/page-placeholder";
import { pageMeta } from "../lib/meta";
import type { Route } from "./+types/article";

export const meta: Route.MetaFunction = () => pageMeta("記事");

export default function Page() {
  return <PagePlaceholder title="記事"><p>記事が見つかりません</p></PagePlaceholder>;
}
