import { Form, Link, useNavigation } from "react-router";
import { localeOfMatches } from "#app/components/layout/meta-locale.ts";
import { FormField } from "#app/components/ui/form-field.tsx";
import { SubmitButton } from "#app/components/ui/submit-button.tsx";
import { accountMessages } from "#app/features/users/account-messages.ts";
import { ForgotPasswordSchema } from "#app/features/users/account.schema.ts";
import { senderAddress } from "#app/features/users/mail-address.ts";
import { callAuthEndpoint } from "#app/features/users/auth.server.ts";
import { authRefusal } from "#app/features/users/account-auth.server.ts";
import { MailSentNotice } from "#app/features/users/components/mail-sent-notice.tsx";
import { usersMessages } from "#app/features/users/messages.ts";
import { useClientValidation } from "#app/features/users/use-client-validation.ts";
import { usersFormError } from "#app/features/users/users.schema.ts";
import { formError, formRefusal } from "#app/lib/api.server.ts";
import { readFormData } from "#app/lib/forms.server.ts";
import { localeFromRequest, translate, useT } from "#app/lib/i18n.tsx";
import { seoMeta } from "#app/lib/seo.ts";
import type { Route } from "./+types/forgot-password";

export const meta: Route.MetaFunction = (args) => {
  const locale = localeOfMatches(args.matches);
  return seoMeta(args, { title: translate(accountMessages, locale, "forgotTitle"), description: translate(accountMessages, locale, "forgotDescription"), noindex: true });
};

export async function loader({ context }: Route.LoaderArgs) {
  return { sender: senderAddress(context.env.mailFrom) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await readFormData(request);
  const locale = localeFromRequest(request);
  const parsed = ForgotPasswordSchema.safeParse({ email: form.get("email") ?? "" });
  if (!parsed.success) return formError(usersFormError(parsed.error), locale);
  // Better Auth's own reset flow; it answers the same whether or not the address is registered.
  const response = await callAuthEndpoint(context.db, context.env, request, "/request-password-reset", { email: parsed.data.email });
  if (response.ok) return { sentTo: parsed.data.email };
  return formRefusal(await authRefusal(response, locale));
}

export default function ForgotPassword({ loaderData, actionData }: Route.ComponentProps) {
  const t = useT(accountMessages);
  const tu = useT(usersMessages);
  const navigation = useNavigation();
  const submitting = navigation.state === "submitting" && navigation.formAction?.startsWith("/forgot-password");
  const { onSubmit, prepare, formText, fieldText } = useClientValidation(() => import("#app/features/users/account.schema.ts").then((m) => m.ForgotPasswordSchema), actionData);
  const sentTo = actionData && "sentTo" in actionData ? actionData.sentTo : undefined;
  return (
    <section className="mx-auto max-w-md">
      <h1 className="text-2xl font-bold">{t("forgotTitle")}</h1>
      <p className="mt-2 text-sm text-slate-700">{t("forgotDescription")}</p>
      {sentTo ? (
        <div className="mt-6">
          <MailSentNotice title={t("forgotSent")} detail={t("forgotSentDetail")} sender={loaderData.sender} email={sentTo} />
        </div>
      ) : (
        <Form method="post" onSubmit={onSubmit} onFocus={prepare} className="mt-6 space-y-4 rounded-lg border border-slate-200 bg-white p-6" noValidate>
          {formText ? (
            <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm font-medium text-red-800">
              {formText}
            </p>
          ) : null}
          <FormField
            id="forgot-email"
            name="email"
            type="email"
            autoComplete="email"
            required
            maxLength={254}
            label={tu("email")}
            error={fieldText("email")}
          />
          <SubmitButton pending={submitting} pendingText={t("forgotSubmitting")} wide>
            {t("forgotSubmit")}
          </SubmitButton>
        </Form>
      )}
      <p className="mt-4 text-center text-sm">
        <Link to="/login" className="text-brand-700 underline">
          {t("backToLogin")}
        </Link>
      </p>
    </section>
  );
}
