import { Form, Link, redirect, useNavigation, useSearchParams } from "react-router";
import { localeOfMatches } from "#app/components/layout/meta-locale.ts";
import { FormField } from "#app/components/ui/form-field.tsx";
import { SubmitButton } from "#app/components/ui/submit-button.tsx";
import { DISPLAY_NAME_MAX, EMAIL_MAX, PASSWORD_MAX } from "#app/features/users/display-name.ts";
import { usersMessages } from "#app/features/users/messages.ts";
import { safeRedirect } from "#app/features/users/safe-redirect.ts";
import { getViewer } from "#app/features/users/session.server.ts";
import { useClientValidation } from "#app/features/users/use-client-validation.ts";
import { SignupSchema, usersFormError } from "#app/features/users/users.schema.ts";
import { MESSAGE_PARAMS } from "#app/features/users/users-form.ts";
import { callAuthEndpoint, cookiesOf } from "#app/features/users/auth.server.ts";
import { localeFromRequest, translate, useT } from "#app/lib/i18n.tsx";
import { formError, formRefusal } from "#app/lib/api.server.ts";
import { authRefusal } from "#app/features/users/account-auth.server.ts";
import { seoMeta } from "#app/lib/seo.ts";
import { LineLoginButton } from "#app/features/users/components/line-login-button.tsx";
import type { Route } from "./+types/signup";
import { readFormData } from "#app/lib/forms.server.ts";
import { senderAddress } from "#app/features/users/mail-address.ts";
import { VERIFIED_CALLBACK } from "#app/features/users/account-links.ts";
import { SignupCheckMail } from "#app/features/users/components/signup-check-mail.tsx";
import { readQuery } from "#app/lib/input.server.ts";
import { RedirectQuerySchema } from "#app/features/users/redirect-query.ts";

export const meta: Route.MetaFunction = (args) => {
  const locale = localeOfMatches(args.matches);
  return seoMeta(args, { title: translate(usersMessages, locale, "signupTitle"), description: translate(usersMessages, locale, "signupDescription"), noindex: true });
};

export async function loader({ request, context }: Route.LoaderArgs) {
  if (await getViewer(request, context)) throw redirect(safeRedirect(readQuery(request, RedirectQuerySchema).redirectTo, "/profile"));
  return { line: !!context.env.line };
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await readFormData(request);
  const locale = localeFromRequest(request);
  const redirectTo = safeRedirect(form.get("redirectTo"), "/profile");
  const values = {
    displayName: String(form.get("displayName") ?? ""),
    email: String(form.get("email") ?? ""),
  };
  const parsed = SignupSchema.safeParse({ ...values, password: form.get("password") ?? "" });
  if (!parsed.success) return formError(usersFormError(parsed.error), locale, { values });
  const response = await callAuthEndpoint(context.db, context.env, request, "/sign-up/email", {
    name: parsed.data.displayName,
    email: parsed.data.email,
    password: parsed.data.password,
    callbackURL: VERIFIED_CALLBACK,
  });
  // With REQUIRE_EMAIL_VERIFICATION there is no session yet: the page says to open the mail.
  if (response.ok && context.env.requireEmailVerification) return { checkMailSentTo: parsed.data.email, sender: senderAddress(context.env.mailFrom) };
  if (response.ok) throw redirect(redirectTo, { headers: cookiesOf(response) });
  const refusal = await authRefusal(response, locale);
  const field = refusal.code === "email_taken" ? "email" : refusal.code === "password_common" ? "password" : undefined;
  return formRefusal({ ...refusal, status: refusal.status === 422 ? 400 : refusal.status, ...(field ? { fields: { [field]: refusal.message } } : {}) }, { values });
}

export default function Signup({ actionData, loaderData }: Route.ComponentProps) {
  const t = useT(usersMessages);
  const [params] = useSearchParams();
  const navigation = useNavigation();
  const submitting = navigation.state === "submitting" && navigation.formAction?.startsWith("/signup");
  const { onSubmit, prepare, formText, fieldText } = useClientValidation(() => import("#app/features/users/users.schema.ts").then((m) => m.SignupSchema), actionData);
  const checkMail = actionData && "checkMailSentTo" in actionData ? actionData : undefined;
  const values = actionData && "values" in actionData ? actionData.values : undefined;
  if (checkMail) return <SignupCheckMail email={checkMail.checkMailSentTo} sender={checkMail.sender} />;
  const redirectTo = safeRedirect(params.get("redirectTo"), "/profile");
  return (
    <section className="mx-auto max-w-md">
      <h1 className="text-2xl font-bold">{t("signupHeading")}</h1>
      {loaderData?.line ? <LineLoginButton redirectTo={redirectTo} /> : null}
      <Form method="post" onSubmit={onSubmit} onFocus={prepare} className="mt-6 space-y-4 rounded-lg border border-slate-200 bg-white p-6" noValidate>
        <input type="hidden" name="redirectTo" value={redirectTo} />
        {formText ? (
          <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm font-medium text-red-800">
            {formText}
          </p>
        ) : null}
        <FormField
          id="signup-display-name"
          name="displayName"
          autoComplete="nickname"
          required
          maxLength={DISPLAY_NAME_MAX * 2}
          defaultValue={values?.displayName}
          label={t("displayName")}
          hint={t("displayNameHint", { max: DISPLAY_NAME_MAX })}
          error={fieldText("displayName")}
        />
        <FormField
          id="signup-email"
          name="email"
          type="email"
          autoComplete="email"
          required
          maxLength={EMAIL_MAX}
          defaultValue={values?.email}
          label={t("email")}
          error={fieldText("email")}
        />
        <FormField
          id="signup-password"
          name="password"
          type="password"
          autoComplete="new-password"
          required
          maxLength={PASSWORD_MAX}
          label={t("password")}
          hint={t("passwordHint", MESSAGE_PARAMS)}
          error={fieldText("password")}
        />
        <SubmitButton pending={submitting} pendingText={t("signupSubmitting")} wide>
          {t("signupSubmit")}
        </SubmitButton>
      </Form>
      <p className="mt-4 text-center text-sm">
        {t("signupHaveAccount")}{" "}
        <Link to={redirectTo === "/profile" ? "/login" : `/login?redirectTo=${encodeURIComponent(redirectTo)}`} className="text-brand-700 underline">
          {t("signupToLogin")}
        </Link>
      </p>
    </section>
  );
}
