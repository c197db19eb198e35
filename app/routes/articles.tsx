import { PagePlaceholder } from "../components/ui/page-placeholder";
import { seoMeta } from "../lib/seo";
import type { Route } from "./+types/articles";

// An empty list (the feature is still being built) stays out of search results.
export const meta: Route.MetaFunction = (args) => seoMeta(args, { title: "記事", breadcrumbs: [{ name: "記事", path: "/articles" }], noindex: true });

export default function Page() {
  return <PagePlaceholder title="記事"><p>記事が見つかりません</p></PagePlaceholder>;
}
