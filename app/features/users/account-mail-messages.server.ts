import { defineMessages } from "../../lib/i18n";

/**
 * The account mails (reset, verification, change of address, deletion): only the server sends
 * them, so their texts are not part of the account pages' catalogue in the browser.
 */
export const accountMailMessages = defineMessages({
  ja: {
    mailResetSubject: "パスワードの再設定",
    mailResetBody: "パスワード再設定のご依頼を受け付けました。下のボタンから新しいパスワードを設定してください。",
    mailResetAction: "パスワードを再設定する",
    mailResetNote: "このリンクの有効期限は1時間です。ご依頼に心当たりがない場合は、このメールを無視してください（パスワードは変更されません）。",
    mailResetDoneSubject: "パスワードを変更しました",
    mailResetDoneBody: "トレポケのアカウントのパスワードが変更され、ほかのすべての端末からログアウトしました。",
    mailResetDoneNote: "この変更に心当たりがない場合は、すぐに「パスワードをお忘れですか？」からパスワードを再設定してください。",
    mailVerifySubject: "メールアドレスの確認",
    mailVerifyBody: "トレポケへのご登録ありがとうございます。下のボタンを押して、メールアドレスの確認を完了してください。",
    mailVerifyAction: "メールアドレスを確認する",
    mailVerifyNote: "このリンクの有効期限は24時間です。",
    mailChangeSubject: "新しいメールアドレスの確認",
    mailChangeBody: "トレポケのアカウントのメールアドレスをこのアドレスに変更する手続きを受け付けました。下のボタンを押すと変更が完了します。",
    mailChangeAction: "メールアドレスを変更する",
    mailChangeOldSubject: "メールアドレスの変更手続きがありました",
    mailChangeOldBody: "トレポケのアカウントのメールアドレスを「{newEmail}」に変更する手続きが行われました。新しいアドレスに届いたリンクが開かれると変更が完了し、以後のお知らせは新しいアドレスに届きます。",
    mailChangeStrangerNote: "お心当たりがない場合は、このメールを無視してください。リンクを開かなければ何も変更されません。",
    mailChangeOldNotMe: "この手続きに心当たりがない場合は、下の「これは私ではありません」を押してください。変更を取り消し（変更が済んでいれば元のアドレスに戻し）、すべての端末からログアウトして、パスワードの再設定リンクをこのアドレスにお送りします。",
    mailChangeOldNotMeAction: "これは私ではありません",
    mailChangeOldNote: "このリンクの有効期限は7日間です。ご自身で変更された場合は、このメールを無視してください。",
    mailDeletedSubject: "退会手続きが完了しました",
    mailDeletedBody: "トレポケのアカウントを削除しました。プロフィールとメールアドレスは削除され、このアドレスにトレポケからメールが届くことはありません。ご利用ありがとうございました。",
  },
  en: {
    mailResetSubject: "Reset your password",
    mailResetBody: "We received a request to reset your password. Use the button below to set a new one.",
    mailResetAction: "Reset password",
    mailResetNote: "This link is valid for one hour. If you did not ask for it, ignore this email (your password stays unchanged).",
    mailResetDoneSubject: "Your password was changed",
    mailResetDoneBody: "The password of your Torepoke account was changed, and every other device was logged out.",
    mailResetDoneNote: "If this was not you, reset your password at once with \"Forgot your password?\".",
    mailVerifySubject: "Verify your email address",
    mailVerifyBody: "Thank you for signing up to Torepoke. Press the button below to verify your email address.",
    mailVerifyAction: "Verify email address",
    mailVerifyNote: "This link is valid for 24 hours.",
    mailChangeSubject: "Confirm your new email address",
    mailChangeBody: "We received a request to change your Torepoke account's email address to this one. Press the button below to complete the change.",
    mailChangeAction: "Change email address",
    mailChangeOldSubject: "Your email address is being changed",
    mailChangeOldBody: "A change of your Torepoke account's email address to \"{newEmail}\" was requested. Once the link sent to the new address is opened, the change is complete and future mail goes there.",
    mailChangeStrangerNote: "If you did not expect this, ignore this email. Nothing changes unless the link is opened.",
    mailChangeOldNotMe: "If you did not ask for this, press \"This wasn't me\" below. We cancel the change (or move the account back to this address if it already went through), log out every device and send a password reset link to this address.",
    mailChangeOldNotMeAction: "This wasn't me",
    mailChangeOldNote: "This link is valid for 7 days. If you made the change yourself, ignore this email.",
    mailDeletedSubject: "Your account has been deleted",
    mailDeletedBody: "Your Torepoke account has been deleted. Your profile and email address are gone, and Torepoke will not send mail to this address again. Thank you for using Torepoke.",
  },
});

export type AccountMailMessageKey = keyof (typeof accountMailMessages)["ja"];
