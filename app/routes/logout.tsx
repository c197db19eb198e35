import { redirect } from "react-router";
import { callAuthEndpoint, cookiesOf } from "#app/features/users/auth.server.ts";
import { requestLog } from "#app/lib/logger.server.ts";
import type { Route } from "./+types/logout";

/** POST /logout: ends the session on the server, clears the cookie, goes to / (docs/product-rules.md §4). */
export async function action({ request, context }: Route.ActionArgs) {
  try {
    const response = await callAuthEndpoint(context.db, context.env, request, "/sign-out");
    if (!response.ok) throw new Error(`sign-out answered ${response.status}`);
    return redirect("/", { headers: cookiesOf(response) });
  } catch (error) {
    // docs/product-rules.md §8: a failed sign-out is logged as "Logout error" (the server's log); the cookie is cleared anyway.
    requestLog(context).error("Logout error", { error: error instanceof Error ? error.message : String(error) });
    const headers = new Headers();
    for (const name of ["torepoke.session_token", "__Secure-torepoke.session_token"]) {
      headers.append("set-cookie", `${name}=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax${name.startsWith("__Secure-") ? "; Secure" : ""}`);
    }
    return redirect("/", { headers });
  }
}

// A GET (typed URL, old bookmark) changes nothing.
export function loader() {
  return redirect("/");
}
