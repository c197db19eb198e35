import { Link } from "react-router";
import { useT } from "#app/lib/i18n.tsx";
import { accountMessages } from "#app/features/users/account-messages.ts";
import { accountStatusMessages } from "#app/features/users/account-status-messages.ts";
import { MailSentNotice } from "./mail-sent-notice";

/** After sign-up when the address must be verified first (REQUIRE_EMAIL_VERIFICATION=true). */
export function SignupCheckMail({ email, sender }: { email: string; sender: string }) {
  const t = useT(accountMessages);
  const tStatus = useT(accountStatusMessages);
  return (
    <section className="mx-auto max-w-md space-y-4">
      <h1 className="text-2xl font-bold">{tStatus("verifyTitle")}</h1>
      <MailSentNotice title={t("signupCheckMail")} sender={sender} email={email} />
      <p className="text-center text-sm">
        <Link to="/login" className="text-brand-700 underline">
          {t("backToLogin")}
        </Link>
      </p>
    </section>
  );
}
