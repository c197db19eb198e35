import { Link } from "react-router";
import { useT } from "#app/lib/i18n.tsx";
import { accountStatusMessages } from "#app/features/users/account-status-messages.ts";

/** On the profile: whether the address is verified, and the way to the account settings. */
/** `emailVerified` null: the account has no address of its own (a LINE sign-up without one). */
export function AccountCard({ emailVerified }: { emailVerified: boolean | null }) {
  const t = useT(accountStatusMessages);
  return (
    <section aria-labelledby="account-card-heading" className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-slate-200 bg-white p-4">
      <div className="space-y-1">
        <h2 id="account-card-heading" className="font-bold">
          {t("settingsHeading")}
        </h2>
        <p className="text-sm">
          {t("verifyTitle")}:{" "}
          <span data-testid="profile-email-verified" className={emailVerified ? "font-bold text-green-800" : emailVerified === null ? "font-bold text-slate-700" : "font-bold text-amber-900"}>
            {emailVerified === null ? t("verifyNoAddress") : emailVerified ? t("verifyVerified") : t("verifyUnverified")}
          </span>
        </p>
        <p className="text-sm text-slate-600">{t("settingsSummary")}</p>
      </div>
      <Link to="/profile/account" className="rounded-md border border-brand-700 px-4 py-2 font-bold text-brand-700 hover:bg-brand-50">
        {t("settingsOpen")}
      </Link>
    </section>
  );
}
