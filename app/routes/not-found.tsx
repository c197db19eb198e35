import { data } from "react-router";
import { layoutMessages } from "../components/layout/messages";
import { translate } from "../lib/i18n";
import { localeOfMatches } from "../components/layout/meta-locale";
import { seoMeta } from "../lib/seo";
import type { Route } from "./+types/not-found";

export const meta: Route.MetaFunction = (args) => seoMeta(args, { title: translate(layoutMessages, localeOfMatches(args.matches), "notFoundTitle"), noindex: true });

// Unknown paths answer 404 through the root error boundary.
export function loader() {
  throw data(null, { status: 404 });
}

export default function NotFound() {
  return null;
}
