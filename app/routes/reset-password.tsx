import { data, Form, Link, redirect, useNavigation } from "react-router";
import { localeOfMatches } from "../components/layout/meta-locale";
import { FormField } from "../components/ui/form-field";
import { SubmitButton } from "../components/ui/submit-button";
import { accountMessages } from "../features/users/account-messages";
import { ResetPasswordSchema } from "../features/users/account.schema";
import { isResetTokenValid } from "../features/users/account.server";
import { callAuthEndpoint } from "../features/users/auth.server";
import { PASSWORD_MAX } from "../features/users/display-name";
import { usersMessages } from "../features/users/messages";
import { useClientValidation } from "../features/users/use-client-validation";
import { fieldErrors, MESSAGE_PARAMS, type FieldErrors } from "../features/users/users.schema";
import { readFormData } from "../lib/forms.server";
import { localeFromRequest, translate, useT } from "../lib/i18n";
import { seoMeta } from "../lib/seo";
import type { Route } from "./+types/reset-password";

export const meta: Route.MetaFunction = (args) => {
  const locale = localeOfMatches(args.matches);
  return seoMeta(args, { title: translate(accountMessages, locale, "resetTitle"), description: translate(accountMessages, locale, "resetDescription"), noindex: true });
};

export async function loader({ request, context }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  return { token, valid: token.length > 0 && token.length <= 200 && (await isResetTokenValid(context.db, context.env, token)) };
}

type Errors = FieldErrors<"password"> & { formText?: string; passwordText?: string; invalidLink?: boolean };

export async function action({ request, context }: Route.ActionArgs) {
  const form = await readFormData(request);
  const parsed = ResetPasswordSchema.safeParse({ token: form.get("token") ?? "", password: form.get("password") ?? "" });
  if (!parsed.success) {
    const errors = fieldErrors<"password" | "token">(parsed.error);
    if (errors.token) return data<{ errors: Errors }>({ errors: { invalidLink: true } }, { status: 400 });
    return data<{ errors: Errors }>({ errors: { password: errors.password } }, { status: 400 });
  }
  const response = await callAuthEndpoint(context.db, context.env, request, "/reset-password", { token: parsed.data.token, newPassword: parsed.data.password });
  // Every session of the account ended with the reset (revokeSessionsOnPasswordReset): log in again.
  if (response.ok) throw redirect("/login?reset=1");
  const body = (await response.json().catch(() => ({}))) as { message?: string; code?: string };
  if (body.code === "INVALID_TOKEN" || body.code === "USER_NOT_FOUND") return data<{ errors: Errors }>({ errors: { invalidLink: true } }, { status: 400 });
  if (body.code === "password_common" || body.code === "password_length") return data<{ errors: Errors }>({ errors: { passwordText: body.message } }, { status: 400 });
  const formText = body.message ?? translate(usersMessages, localeFromRequest(request), "errorUnknown");
  return data<{ errors: Errors }>({ errors: { formText } }, { status: response.status });
}

export default function ResetPassword({ loaderData, actionData }: Route.ComponentProps) {
  const t = useT(accountMessages);
  const tu = useT(usersMessages);
  const navigation = useNavigation();
  const submitting = navigation.state === "submitting" && navigation.formAction?.startsWith("/reset-password");
  const { clientErrors, onSubmit } = useClientValidation<"password">(ResetPasswordSchema);
  const errors: Errors = clientErrors ?? actionData?.errors ?? {};
  const invalid = !loaderData.valid || errors.invalidLink;
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
          <Form method="post" onSubmit={onSubmit} className="mt-6 space-y-4 rounded-lg border border-slate-200 bg-white p-6" noValidate>
            <input type="hidden" name="token" value={loaderData.token} />
            {errors.formText ? (
              <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm font-medium text-red-800">
                {errors.formText}
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
              error={errors.passwordText ?? (errors.password ? tu(errors.password, MESSAGE_PARAMS) : undefined)}
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
