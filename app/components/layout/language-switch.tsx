import { Form, useLocation } from "react-router";
import { LOCALES, useLocale, useT } from "#app/lib/i18n.tsx";
import { layoutMessages } from "./messages";

/**
 * JA/EN: a real translation of the interface (catalogues), not a page-translation widget
 * (docs/decisions/003). The cookie makes the server render the chosen language next time.
 */
export function LanguageSwitch({ onChoose }: { onChoose?: () => void }) {
  const t = useT(layoutMessages);
  const locale = useLocale();
  const location = useLocation();
  return (
    // The group role sits on a div: ARIA does not allow role="group" on a <form>.
    <Form method="post" action="/language" onSubmit={onChoose}>
      <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
      <div role="group" aria-label={t("language")} className="flex w-fit overflow-hidden rounded-full border border-slate-300 text-xs font-bold">
      {LOCALES.map((lang) => (
        <button
          key={lang}
          type="submit"
          name="lang"
          value={lang}
          lang={lang}
          aria-pressed={locale === lang}
          title={lang === "ja" ? t("languageJa") : t("languageEn")}
          className={locale === lang ? "bg-slate-800 px-3 py-1 text-white" : "bg-white px-3 py-1 text-slate-700 hover:bg-slate-100"}
        >
          {lang.toUpperCase()}
        </button>
      ))}
      </div>
    </Form>
  );
}
