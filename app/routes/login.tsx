import { Form, Link, redirect, useNavigation, useSearchParams } from "react-router";
import { localeOfMatches } from "#app/components/layout/meta-locale.ts";
import { FormField } from "#app/components/ui/form-field.tsx";
import { SubmitButton } from "#app/components/ui/submit-button.tsx";
import { usersMessages } from "#app/features/users/messages.ts";
import { safeRedirect } from "#app/features/users/safe-redirect.ts";
import { getViewer } from "#app/features/users/session.server.ts";
import { useClientValidation } from "#app/features/users/use-client-validation.ts";
import { fieldErrors, LoginSchema, usersFormError } from "#app/features/users/users.schema.ts";
import { callAuthEndpoint, cookiesOf } from "#app/features/users/auth.server.ts";
import { localeFromRequest, translate, useT, type Locale } from "#app/lib/i18n.tsx";
import { formError, formRefusal } from "#app/lib/api.server.ts";
import { seoMeta } from "#app/lib/seo.ts";
import type { Route } from "./+types/login";
import { readFormData } from "#app/lib/forms.server.ts";
import { accountLoginRefusal, authRefusal, watchVerificationMail } from "#app/features/users/account-auth.server.ts";
import { ForgotPasswordLink, LoginNotices } from "#app/features/users/components/login-notices.tsx";
import { LineLoginButton, lineErrorText } from "#app/features/users/components/line-login-button.tsx";
import { readQuery } from "#app/lib/input.server.ts";
import { RedirectQuerySchema } from "#app/features/users/redirect-query.ts";

export const meta: Route.MetaFunction = (args) => {
  const locale = localeOfMatches(args.matches);
  return seoMeta(args, { title: translate(usersMessages, locale, "loginTitle"), description: translate(usersMessages, locale, "loginDescription"), noindex: true });
};

export async function loader({ request, context }: Route.LoaderArgs) {
  // Already signed in: go where the guard wanted to send them.
  if (await getViewer(request, context)) throw redirect(safeRedirect(readQuery(request, RedirectQuerySchema).redirectTo));
  return { line: !!context.env.line };
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await readFormData(request);
  const locale = localeFromRequest(request);
  const redirectTo = safeRedirect(form.get("redirectTo"));
  const parsed = LoginSchema.safeParse({ email: form.get("email") ?? "", password: form.get("password") ?? "" });
  if (!parsed.success) {
    // A malformed password is reported like a wrong one: nothing about the account leaks.
    if (fieldErrors(parsed.error).password) return credentialsRefused(locale);
    return formError(usersFormError(parsed.error), locale);
  }
  const { result: response, verificationMailQueued } = await watchVerificationMail(() =>
    callAuthEndpoint(context.db, context.env, request, "/sign-in/email", {
      email: parsed.data.email,
      password: parsed.data.password,
    }),
  );
  if (response.ok) throw redirect(redirectTo, { headers: cookiesOf(response) });
  if (response.status === 401) return credentialsRefused(locale);
  const refusal = await authRefusal(response, locale);
  return formRefusal({ ...refusal, message: accountLoginRefusal(refusal.code, locale, verificationMailQueued) ?? refusal.message });
}

function credentialsRefused(locale: Locale) {
  return formRefusal({ status: 400, code: "invalid_credentials", message: translate(usersMessages, locale, "errorCredentials") });
}

export default function Login({ actionData, loaderData }: Route.ComponentProps) {
  const t = useT(usersMessages);
  const [params] = useSearchParams();
  const navigation = useNavigation();
  const submitting = navigation.state === "submitting" && navigation.formAction?.startsWith("/login");
  const { onSubmit, prepare, formText, fieldText } = useClientValidation(() => import("#app/features/users/users.schema.ts").then((m) => m.LoginSchema), actionData);
  const redirectTo = safeRedirect(params.get("redirectTo"));
  const lineError = loaderData?.line ? lineErrorText(params.get("error")) : null;
  return (
    <section className="mx-auto max-w-md">
      <h1 className="text-2xl font-bold">{t("loginHeading")}</h1>
      <LoginNotices />
      {lineError ? (
        <p role="alert" className="mt-4 rounded-md bg-red-50 px-3 py-2 text-sm font-medium text-red-800">
          {t(lineError)}
        </p>
      ) : null}
      {loaderData?.line ? <LineLoginButton redirectTo={redirectTo} /> : null}
      <Form method="post" onSubmit={onSubmit} onFocus={prepare} className="mt-6 space-y-4 rounded-lg border border-slate-200 bg-white p-6" noValidate>
        <input type="hidden" name="redirectTo" value={redirectTo} />
        {formText ? (
          <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm font-medium text-red-800">
            {formText}
          </p>
        ) : null}
        <FormField
          id="login-email"
          name="email"
          type="email"
          autoComplete="email"
          required
          maxLength={254}
          label={t("email")}
          error={fieldText("email")}
        />
        <FormField
          id="login-password"
          name="password"
          type="password"
          autoComplete="current-password"
          required
          maxLength={128}
          label={t("password")}
          error={fieldText("password")}
        />
        <SubmitButton pending={submitting} pendingText={t("loginSubmitting")} wide>
          {t("loginSubmit")}
        </SubmitButton>
        <ForgotPasswordLink />
      </Form>
      <p className="mt-4 text-center text-sm">
        {t("loginNoAccount")}{" "}
        <Link to={redirectTo === "/" ? "/signup" : `/signup?redirectTo=${encodeURIComponent(redirectTo)}`} className="text-brand-700 underline">
          {t("loginToSignup")}
        </Link>
      </p>
    </section>
  );
}
