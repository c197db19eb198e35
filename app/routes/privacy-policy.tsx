import { PagePlaceholder } from "../components/ui/page-placeholder";
import { pageMeta } from "../lib/meta";
import type { Route } from "./+types/privacy-policy";

export const meta: Route.MetaFunction = () => pageMeta("プライバシーポリシー");

export default function Page() {
  return <PagePlaceholder title="プライバシーポリシー"></PagePlaceholder>;
}
