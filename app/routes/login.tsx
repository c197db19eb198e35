import { PagePlaceholder } from "../components/ui/page-placeholder";
import { pageMeta } from "../lib/meta";
import type { Route } from "./+types/login";

export const meta: Route.MetaFunction = () => pageMeta("ログイン");

export default function Page() {
  return <PagePlaceholder title="ログイン"></PagePlaceholder>;
}
