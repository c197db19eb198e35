import { localeOfMatches } from "../components/layout/meta-locale";
import { LEGAL_DOCUMENTS } from "../features/legal/documents";
import { LegalPage } from "../features/legal/legal-page";
import { useLocale } from "../lib/i18n";
import { pageMeta } from "../lib/meta";
import type { Route } from "./+types/privacy-policy";

export const meta: Route.MetaFunction = ({ matches }) => {
  const document = LEGAL_DOCUMENTS.privacy[localeOfMatches(matches)];
  return pageMeta(document.title, document.description);
};

export default function Page() {
  return <LegalPage document={LEGAL_DOCUMENTS.privacy[useLocale()]} />;
}
