import { redirect } from "react-router";
import { startLineSignIn } from "../features/users/login-methods.server";
import { safeRedirect } from "../features/users/safe-redirect";
import { formError } from "../lib/api.server";
import { readFormData } from "../lib/forms.server";
import { localeFromRequest } from "../lib/i18n";
import type { Route } from "./+types/login.line";

/**
 * POST /login/line (LINEでログイン on /login and /signup): on to LINE with the library's state,
 * back to `redirectTo`, or to the profile's friend-ID prompt for a new player.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await readFormData(request);
  const redirectTo = safeRedirect(form.get("redirectTo"));
  try {
    const line = await startLineSignIn(context.db, context.env, request, { redirectTo, newUserTo: redirectTo === "/" ? "/profile" : redirectTo });
    return redirect(line.url, { headers: line.headers });
  } catch (error) {
    return formError(error, localeFromRequest(request));
  }
}

// A GET (typed URL, old bookmark) goes to the log-in page.
export function loader() {
  return redirect("/login");
}
