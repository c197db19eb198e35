import { Form } from "react-router";
import { useT } from "#app/lib/i18n.tsx";
import { usersMessages } from "#app/features/users/messages.ts";

/**
 * LINEでログイン, first on /login and /signup when the site has LINE Login. A whole-page POST
 * (the browser then leaves for LINE), which works before hydration too. LINE's green with dark
 * text: white on #06C755 fails the contrast check.
 */
export function LineLoginButton({ redirectTo, label }: { redirectTo: string; label?: string }) {
  const t = useT(usersMessages);
  return (
    <Form method="post" action="/login/line" reloadDocument className="mt-6">
      <input type="hidden" name="redirectTo" value={redirectTo} />
      <button type="submit" className="block w-full rounded-md bg-[#06C755] px-5 py-3 text-base font-bold text-slate-950 hover:bg-[#05b34c] focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-slate-900">
        {label ?? t("lineLogin")}
      </button>
      {label ? null : <p className="mt-4 text-center text-sm text-slate-600">{t("lineOrEmail")}</p>}
    </Form>
  );
}

/** What /login says when LINE sent the player back with a refusal (`?error=` from the library). */
export function lineErrorText(error: string | null): "lineNotLinked" | "lineFailed" | null {
  if (!error) return null;
  return error === "account_not_linked" ? "lineNotLinked" : "lineFailed";
}
