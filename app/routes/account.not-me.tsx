import { Form, Link, useNavigation } from "react-router";
import { localeOfMatches } from "#app/components/layout/meta-locale.ts";
import { SubmitButton } from "#app/components/ui/submit-button.tsx";
import { accountMessages } from "#app/features/users/account-messages.ts";
import { notMeLink, undoAddressChange } from "#app/features/users/address-change.server.ts";
import { callAuthEndpoint } from "#app/features/users/auth.server.ts";
import { requestLog } from "#app/lib/logger.server.ts";
import { readFormData } from "#app/lib/forms.server.ts";
import { translate, useT } from "#app/lib/i18n.tsx";
import { seoMeta } from "#app/lib/seo.ts";
import type { Route } from "./+types/account.not-me";
import { readQuery } from "#app/lib/input.server.ts";
import { z } from "#app/lib/zod.ts";

export const meta: Route.MetaFunction = (args) => {
  const locale = localeOfMatches(args.matches);
  return seoMeta(args, { title: translate(accountMessages, locale, "notMeTitle"), noindex: true });
};

/**
 * /account/not-me?token=…: これは私ではありません, the link in the notice a change of address sends
 * to the old address (features/users/address-change.server.ts). GET shows one button, so a mail
 * scanner that opens the link changes nothing; POST undoes the change, ends every session and
 * mails a password-reset link to the address the account is at afterwards. No session is needed:
 * the signed token names the account.
 */
/** The mailed link's query: `?token=` (none reads as an empty one, which is no valid link). */
const TokenQuerySchema = z.object({ token: z.string().catch("") });

export async function loader({ request, context }: Route.LoaderArgs) {
  const { token } = readQuery(request, TokenQuerySchema);
  return { token, ...(await notMeLink(context.db, context.env, token)) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await readFormData(request);
  const result = await undoAddressChange(context.db, context.env, String(form.get("token") ?? ""));
  if (!result.done) return { done: false as const, state: result.state };
  // The reset link goes to the old address only: never to one the requester chose.
  const restored = result.email.toLowerCase() === result.oldEmail.toLowerCase();
  let resetSent = false;
  if (restored) {
    // The account is safe already; a reset mail that cannot be queued now is asked for on /forgot-password.
    try {
      resetSent = (await callAuthEndpoint(context.db, context.env, request, "/request-password-reset", { email: result.email })).ok;
    } catch (error) {
      requestLog(context).error("not-me reset mail not queued", { error: error instanceof Error ? error.message : String(error) });
    }
  } else {
    requestLog(context).warn("not-me could not restore the old address", { reason: "taken" });
  }
  return { done: true as const, email: result.oldEmail, reverted: result.reverted, restored, resetSent };
}

export default function NotMe({ loaderData, actionData }: Route.ComponentProps) {
  const t = useT(accountMessages);
  const navigation = useNavigation();
  const state = actionData && !actionData.done ? actionData.state : loaderData.state;
  return (
    <section aria-labelledby="not-me-heading" className="mx-auto max-w-md space-y-4">
      <h1 id="not-me-heading" className="text-2xl font-bold">
        {t("notMeTitle")}
      </h1>
      {actionData?.done ? (
        <div role="status" className="space-y-3 rounded-lg border border-green-200 bg-green-50 p-4 text-green-900" data-testid="not-me-done">
          <p className="font-bold">{!actionData.restored ? t("notMeDoneLocked") : actionData.reverted ? t("notMeDoneReverted", { email: actionData.email }) : t("notMeDone")}</p>
          {actionData.resetSent ? <p>{t("notMeResetSent", { email: actionData.email })}</p> : null}
        </div>
      ) : state === "valid" ? (
        <>
          <p>{t("notMeIntro", { newEmail: loaderData.newEmail ?? "" })}</p>
          <p className="text-sm text-slate-700">{t("notMeWhat")}</p>
          <Form method="post">
            <input type="hidden" name="token" value={loaderData.token} />
            <SubmitButton pending={navigation.state === "submitting"} pendingText={t("notMeSubmitting")} wide>
              {t("notMeButton")}
            </SubmitButton>
          </Form>
        </>
      ) : (
        <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm font-medium text-red-800">
          {state === "used" ? t("notMeUsed") : t("notMeInvalid")}
        </p>
      )}
      <p className="text-center text-sm">
        <Link to="/forgot-password" className="text-brand-700 underline">
          {t("forgotLink")}
        </Link>
      </p>
    </section>
  );
}
