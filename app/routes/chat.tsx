import { PagePlaceholder } from "../components/ui/page-placeholder";
import { pageMeta } from "../lib/meta";
import type { Route } from "./+types/chat";

export const meta: Route.MetaFunction = () => pageMeta("チャット");

export default function Page() {
  return <PagePlaceholder title="チャット"></PagePlaceholder>;
}
