import { Form, Link, redirect, useNavigation } from "react-router";
import { localeOfMatches } from "#app/components/layout/meta-locale.ts";
import { FormField } from "#app/components/ui/form-field.tsx";
import { SubmitButton } from "#app/components/ui/submit-button.tsx";
import { accountMessages } from "#app/features/users/account-messages.ts";
import { ResetPasswordSchema } from "#app/features/users/account.schema.ts";
import { callAuthEndpoint } from "#app/features/users/auth.server.ts";
import { authRefusal, isResetTokenCurrent } from "#app/features/users/account-auth.server.ts";
import { PASSWORD_MAX } from "#app/features/users/display-name.ts";
import { usersMessages } from "#app/features/users/messages.ts";
import { useClientValidation } from "#app/features/users/use-client-validation.ts";
import { fieldErrors, usersFormError } from "#app/features/users/users.schema.ts";
import { MESSAGE_PARAMS } from "#app/features/users/users-form.ts";
import { formError, formRefusal } from "#app/lib/api.server.ts";
import { readFormData } from "#app/lib/forms.server.ts";
import { localeFromRequest, translate, useT, type Locale } from "#app/lib/i18n.tsx";
import { seoMeta } from "#app/lib/seo.ts";
import type { Route } from "./+types/reset-password";
import { readQuery } from "#app/lib/input.server.ts";
import { z } from "#app/lib/zod.ts";

export const meta: Route.MetaFunction = (args) => {
  const locale = localeOfMatches(args.matches);
  return seoMeta(args, { title: translate(accountMessages, locale, "resetTitle"), description: translate(accountMessages, locale, "resetDescription"), noindex: true });
};

/** The mailed link's query: `?token=` (none reads as an empty one, which is no valid link). */
const TokenQuerySchema = z.object({ token: z.string().catch("") });

export async function loader({ request, context }: Route.LoaderArgs) {
  const { token } = readQuery(request, TokenQuerySchema);
  return { token, valid: token.length > 0 && token.length <= 200 && (await isResetTokenCurrent(context.db, token)) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await readFormData(request);
  const locale = localeFromRequest(request);
  const parsed = ResetPasswordSchema.safeParse({ token: form.get("token") ?? "", password: form.get("password") ?? "" });
  if (!parsed.success) {
    if (fieldErrors(parsed.error).token) return invalidLink(locale);
    return formError(usersFormError(parsed.error), locale);
  }
  const response = await callAuthEndpoint(context.db, context.env, request, "/reset-password", { token: parsed.data.token, newPassword: parsed.data.password });
  // Every session of the account ended with the reset (revokeSessionsOnPasswordReset): log in again.
  if (response.ok) throw redirect("/login?reset=1");
  const refusal = await authRefusal(response, locale);
  if (refusal.code === "invalid_token" || refusal.code === "user_not_found") return invalidLink(locale);
  if (refusal.code === "password_common" || refusal.code === "password_length") return formRefusal({ ...refusal, status: 400, fields: { password: refusal.message } });
  return formRefusal(refusal);
}

/** A token that is missing, used or expired: the page offers to send a new link. */
function invalidLink(locale: Locale) {
  return formRefusal({ status: 400, code: INVALID_LINK, message: translate(accountMessages, locale, "resetInvalidLink") });
}

const INVALID_LINK = "invalid_link";

export default function ResetPassword({ loaderData, actionData }: Route.ComponentProps) {
  const t = useT(accountMessages);
  const tu = useT(usersMessages);
  const navigation = useNavigation();
  const submitting = navigation.state === "submitting" && navigation.formAction?.startsWith("/reset-password");
  const { onSubmit, prepare, formText, fieldText, refusal, clientChecked } = useClientValidation(() => import("#app/features/users/account.schema.ts").then((m) => m.ResetPasswordSchema), actionData);
  const invalid = !loaderData.valid || (!clientChecked && refusal?.code === INVALID_LINK);
  return (
    <section className="mx-auto max-w-md">
      <h1 className="text-2xl font-bold">{t("resetTitle")}</h1>
      {invalid ? (
        <div className="mt-6 space-y-4">
          <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm font-medium text-red-800">
            {t("resetInvalidLink")}
          </p>
          <p className="text-center text-sm">
            <Link to="/forgot-password" reloadDocument className="text-brand-700 underline">
              {t("resetRequestAgain")}
            </Link>
          </p>
        </div>
      ) : (
        <>
          <p className="mt-2 text-sm text-slate-700">{t("resetDescription")}</p>
          <Form method="post" onSubmit={onSubmit} onFocus={prepare} className="mt-6 space-y-4 rounded-lg border border-slate-200 bg-white p-6" noValidate>
            <input type="hidden" name="token" value={loaderData.token} />
            {formText ? (
              <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm font-medium text-red-800">
                {formText}
              </p>
            ) : null}
            <FormField
              id="reset-password"
              name="password"
              type="password"
              autoComplete="new-password"
              required
              maxLength={PASSWORD_MAX}
              label={t("resetPassword")}
              hint={tu("passwordHint", MESSAGE_PARAMS)}
              error={fieldText("password")}
            />
            <SubmitButton pending={submitting} pendingText={t("resetSubmitting")} wide>
              {t("resetSubmit")}
            </SubmitButton>
          </Form>
        </>
      )}
    </section>
  );
}
