import { Link, useSearchParams } from "react-router";
import { useT } from "#app/lib/i18n.tsx";
import { accountMessages } from "#app/features/users/account-messages.ts";

/** What /login says after a reset (?reset=1) or an account deletion (?deleted=1). */
export function LoginNotices() {
  const t = useT(accountMessages);
  const [params] = useSearchParams();
  const text = params.get("reset") === "1" ? t("resetDone") : params.get("deleted") === "1" ? t("deleteDone") : null;
  if (!text) return null;
  return (
    <p role="status" className="mt-4 rounded-md border border-emerald-200 bg-emerald-50 px-3 py-2 text-sm font-medium text-emerald-900">
      {text}
    </p>
  );
}

/**
 * パスワードをお忘れですか？ A whole-page load, not a client-side navigation: on a slow phone a
 * client-side navigation shows the new address while the login form — with its own メールアドレス
 * field — is still on screen, and an address typed in that moment goes into the form that is
 * about to disappear (the reset page then refused an empty address). A loaded page has only its
 * own form, which works before hydration too (a plain POST).
 */
export function ForgotPasswordLink() {
  const t = useT(accountMessages);
  return (
    <p className="text-right text-sm">
      <Link to="/forgot-password" reloadDocument className="text-brand-700 underline">
        {t("forgotLink")}
      </Link>
    </p>
  );
}
