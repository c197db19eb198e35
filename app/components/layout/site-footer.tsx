import { Link } from "react-router";
import { useT } from "#app/lib/i18n.tsx";
import { layoutMessages } from "./messages";

/** docs/product-rules.md §1 footer: HOME, privacy policy, terms, "© {year} {site}". Hidden on /admin (root.tsx). */
export function SiteFooter({ year }: { year: number }) {
  const t = useT(layoutMessages);
  return (
    <footer className="mt-12 border-t border-slate-200 bg-white">
      <div className="mx-auto flex max-w-5xl flex-col gap-2 px-4 py-6 text-sm text-slate-600">
        <nav aria-label={t("footerMenu")}>
          <ul className="flex flex-wrap gap-4">
            <li><Link to="/" className="hover:underline">{t("home")}</Link></li>
            <li><Link to="/privacy-policy" className="hover:underline">{t("privacyPolicy")}</Link></li>
            <li><Link to="/terms" className="hover:underline">{t("terms")}</Link></li>
          </ul>
        </nav>
        <p>{t("copyright", { year, site: t("siteTitle") })}</p>
      </div>
    </footer>
  );
}
