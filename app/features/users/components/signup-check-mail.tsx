import { Link } from "react-router";
import { useT } from "../../../lib/i18n";
import { accountMessages } from "../account-messages";
import { accountStatusMessages } from "../account-status-messages";
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
