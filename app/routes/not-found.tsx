import { data } from "react-router";
import { seoMeta } from "../lib/seo";
import type { Route } from "./+types/not-found";

export const meta: Route.MetaFunction = (args) => seoMeta(args, { title: "ページが見つかりません", noindex: true });

// Unknown paths answer 404 through the root error boundary.
export function loader() {
  throw data(null, { status: 404 });
}

export default function NotFound() {
  return null;
}
