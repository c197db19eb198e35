import { PagePlaceholder } from "../components/ui/page-placeholder";
import { pageMeta } from "../lib/meta";
import type { Route } from "./+types/cards";

export const meta: Route.MetaFunction = () => pageMeta("カードデータベース");

export default function Page() {
  return <PagePlaceholder title="カードデータベース"></PagePlaceholder>;
}
