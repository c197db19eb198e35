import { redirect } from "react-router";
import { startLineSignIn } from "#app/features/users/login-methods.server.ts";
import { safeRedirect } from "#app/features/users/safe-redirect.ts";
import { AppError } from "#app/lib/errors.ts";
import { readFormData } from "#app/lib/forms.server.ts";
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
    // A full-page post (the button reloads the document): a refusal goes back to the log-in page,
    // which says in the reader's language that LINE could not be used, never a JSON body.
    const code = error instanceof AppError ? error.code : "line_failed";
    const back = new URLSearchParams({ error: code });
    if (redirectTo !== "/") back.set("redirectTo", redirectTo);
    return redirect(`/login?${back}`);
  }
}

// A GET (typed URL, old bookmark) goes to the log-in page.
export function loader() {
  return redirect("/login");
}
