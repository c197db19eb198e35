import { localeOfMatches } from "#app/components/layout/meta-locale.ts";
import { LEGAL_DOCUMENTS } from "#app/features/legal/documents.ts";
import { LegalPage } from "#app/features/legal/legal-page.tsx";
import { useLocale } from "#app/lib/i18n.tsx";
import { seoMeta } from "#app/lib/seo.ts";
import type { Route } from "./+types/terms";

export const meta: Route.MetaFunction = (args) => {
  const document = LEGAL_DOCUMENTS.terms[localeOfMatches(args.matches)];
  return seoMeta(args, { title: document.title, description: document.description, breadcrumbs: [{ name: document.title, path: "/terms" }] });
};

export default function Page() {
  return <LegalPage document={LEGAL_DOCUMENTS.terms[useLocale()]} />;
}
