import { localeOfMatches } from "../components/layout/meta-locale";
import { LEGAL_DOCUMENTS } from "../features/legal/documents";
import { LegalPage } from "../features/legal/legal-page";
import { useLocale } from "../lib/i18n";
import { seoMeta } from "../lib/seo";
import type { Route } from "./+types/terms";

export const meta: Route.MetaFunction = (args) => {
  const document = LEGAL_DOCUMENTS.terms[localeOfMatches(args.matches)];
  return seoMeta(args, { title: document.title, description: document.description, breadcrumbs: [{ name: document.title, path: "/terms" }] });
};

export default function Page() {
  return <LegalPage document={LEGAL_DOCUMENTS.terms[useLocale()]} />;
}
