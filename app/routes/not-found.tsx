import { HttpError, pageError } from "../lib/api.server";
import { layoutMessages } from "../components/layout/messages";
import { localeFromRequest, translate } from "../lib/i18n";
import { localeOfMatches } from "../components/layout/meta-locale";
import { seoMeta } from "../lib/seo";
import type { Route } from "./+types/not-found";

export const meta: Route.MetaFunction = (args) => seoMeta(args, { title: translate(layoutMessages, localeOfMatches(args.matches), "notFoundTitle"), noindex: true });

// Unknown paths answer 404 through the root error boundary.
export function loader({ request }: Route.LoaderArgs) {
  throw pageError(new HttpError("not_found"), localeFromRequest(request));
}

export default function NotFound() {
  return null;
}
