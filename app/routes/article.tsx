import { PagePlaceholder } from "../components/ui/page-placeholder";
import { seoMeta } from "../lib/seo";
import type { Route } from "./+types/article";

export const meta: Route.MetaFunction = (args) => seoMeta(args, { title: "記事", noindex: true });

export default function Page() {
  return <PagePlaceholder title="記事"><p>記事が見つかりません</p></PagePlaceholder>;
}
