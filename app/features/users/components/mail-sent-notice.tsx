import { useT } from "#app/lib/i18n.tsx";
import { accountMessages } from "#app/features/users/account-messages.ts";
import { isCarrierAddress } from "#app/features/users/mail-address.ts";

/**
 * Shown after every "メールを送信しました": the sender, a spam-folder reminder and, for Japanese
 * carrier addresses (which often refuse mail from computers), the ドメイン指定受信 hint.
 */
export function MailSentNotice({ title, detail, sender, email }: { title: string; detail?: string; sender: string; email?: string }) {
  const t = useT(accountMessages);
  const domain = sender.split("@").pop() ?? sender;
  return (
    <div role="status" className="space-y-2 rounded-md border border-emerald-200 bg-emerald-50 px-4 py-3 text-sm text-emerald-900">
      <p className="font-bold">{title}</p>
      {detail ? <p>{detail}</p> : null}
      <p>{t("mailFrom", { from: sender })}</p>
      <p>{t("mailNotArriving")}</p>
      {email && isCarrierAddress(email) ? <p className="rounded bg-amber-50 px-2 py-1 text-amber-900">{t("carrierHint", { domain })}</p> : null}
    </div>
  );
}
