import { PagePlaceholder } from "../components/ui/page-placeholder";
import { pageMeta } from "../lib/meta";
import type { Route } from "./+types/terms";

export const meta: Route.MetaFunction = () => pageMeta("利用規約");

export default function Page() {
  return <PagePlaceholder title="利用規約"></PagePlaceholder>;
}
