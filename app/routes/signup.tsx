import { PagePlaceholder } from "../components/ui/page-placeholder";
import { pageMeta } from "../lib/meta";
import type { Route } from "./+types/signup";

export const meta: Route.MetaFunction = () => pageMeta("新規登録");

export default function Page() {
  return <PagePlaceholder title="新規登録"></PagePlaceholder>;
}
