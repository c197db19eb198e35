import { PagePlaceholder } from "../components/ui/page-placeholder";
import { pageMeta } from "../lib/meta";
import type { Route } from "./+types/admin";

export const meta: Route.MetaFunction = () => pageMeta("管理画面");

export default function Page() {
  return <PagePlaceholder title="管理画面"></PagePlaceholder>;
}
