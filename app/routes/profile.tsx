import { PagePlaceholder } from "../components/ui/page-placeholder";
import { pageMeta } from "../lib/meta";
import type { Route } from "./+types/profile";

export const meta: Route.MetaFunction = () => pageMeta("プロフィール");

export default function Page() {
  return <PagePlaceholder title="プロフィール"></PagePlaceholder>;
}
