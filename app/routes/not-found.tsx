import { HttpError, pageError } from "#app/lib/api.server.ts";
import { layoutMessages } from "#app/components/layout/messages.ts";
import { localeFromRequest, translate } from "#app/lib/i18n.tsx";
import { localeOfMatches } from "#app/components/layout/meta-locale.ts";
import { seoMeta } from "#app/lib/seo.ts";
import type { Route } from "./+types/not-found";

export const meta: Route.MetaFunction = (args) => seoMeta(args, { title: translate(layoutMessages, localeOfMatches(args.matches), "notFoundTitle"), noindex: true });

// Unknown paths answer 404 through the root error boundary.
export function loader({ request }: Route.LoaderArgs) {
  throw pageError(new HttpError("not_found"), localeFromRequest(request));
}

export default function NotFound() {
  return null;
}
