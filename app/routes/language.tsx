import { redirect } from "react-router";
import { safeRedirect } from "#app/features/users/safe-redirect.ts";
import { LOCALE_COOKIE, LOCALES, type Locale } from "#app/lib/i18n.tsx";
import type { Route } from "./+types/language";
import { readFormData } from "#app/lib/forms.server.ts";

const ONE_YEAR = 60 * 60 * 24 * 365;

/** POST /language (JA/EN switch): remembers the choice in a cookie and returns to the page. */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await readFormData(request);
  const lang = String(form.get("lang") ?? "");
  const back = safeRedirect(form.get("redirectTo"));
  if (!LOCALES.includes(lang as Locale)) throw redirect(back);
  const secure = context.env.siteUrl.startsWith("https:") ? "; Secure" : "";
  return redirect(back, {
    headers: { "set-cookie": `${LOCALE_COOKIE}=${lang}; Max-Age=${ONE_YEAR}; Path=/; SameSite=Lax${secure}` },
  });
}

export function loader() {
  return redirect("/");
}
