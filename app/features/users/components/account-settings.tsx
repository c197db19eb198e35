import { Form, Link, useNavigation } from "react-router";
import { FormField } from "#app/components/ui/form-field.tsx";
import { fieldMessage, formMessage, refusalOf } from "#app/lib/form-refusal.ts";
import { SubmitButton } from "#app/components/ui/submit-button.tsx";
import { useLocale, useT } from "#app/lib/i18n.tsx";
import { tokyoDateTimeSeconds, tokyoMediumDateTime } from "#app/lib/tokyo-time.ts";
import { accountStatusMessages } from "#app/features/users/account-status-messages.ts";
import { accountSettingsMessages, type AccountSettingsMessageKey } from "#app/features/users/account-settings-messages.ts";
import type { AccountSession, AccountSummary } from "#app/features/users/account.server.ts";
import type { LoginMethods } from "#app/features/users/login-methods.server.ts";
import { LineLoginButton } from "./line-login-button";
import { PASSWORD_MAX, PASSWORD_MIN } from "#app/features/users/display-name.ts";
import { usersMessages } from "#app/features/users/messages.ts";
import { MailSentNotice } from "./mail-sent-notice";

type ActionData = { intent: string; ok?: boolean; sentTo?: string; code?: string; message?: string; fields?: Record<string, string> };

const SECTION = "space-y-4 rounded-lg border border-slate-200 bg-white p-6";
const H2 = "text-xl font-bold";

/** The refusal of this intent's form, if the last answer was one (lib/form-refusal.ts). */
const refusalFor = (actionData: ActionData | undefined, intent: string) => (actionData?.intent === intent ? refusalOf(actionData) : undefined);

function ErrorText({ actionData, intent }: { actionData?: ActionData; intent: string }) {
  const text = formMessage(refusalFor(actionData, intent));
  if (!text) return null;
  return (
    <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm font-medium text-red-800">
      {text}
    </p>
  );
}

const fieldError = (actionData: ActionData | undefined, intent: string, field: string) => fieldMessage(refusalFor(actionData, intent), field);

function Done({ text }: { text: string }) {
  return (
    <p role="status" className="rounded-md bg-green-50 px-3 py-2 text-sm font-medium text-green-800">
      {text}
    </p>
  );
}

const ALERT_NOTICES = new Set<AccountSettingsMessageKey>(["verifyFailed", "lineLinkTaken", "lineLinkFailed"]);

/** /profile/account: verification, e-mail and password, devices, export and deletion. */
export function AccountSettings({
  account,
  sessions,
  loginMethods,
  recentSignInMinutes,
  sender,
  notice,
  actionData,
}: {
  account: AccountSummary & { placeholder: boolean };
  sessions: AccountSession[];
  loginMethods: Omit<LoginMethods, "line"> & { line: { linkedAt: Date | string } | null };
  recentSignInMinutes: number;
  sender: string;
  notice: AccountSettingsMessageKey | null;
  actionData?: ActionData;
}) {
  const ts = useT(accountSettingsMessages);
  const tStatus = useT(accountStatusMessages);
  const tu = useT(usersMessages);
  const locale = useLocale();
  const navigation = useNavigation();
  const pending = (intent: string) => navigation.state === "submitting" && navigation.formData?.get("intent") === intent;
  const ok = (intent: string) => actionData?.intent === intent && actionData.ok;
  return (
    <div className="space-y-8">
      <div className="space-y-2">
        <p className="text-sm">
          <Link to="/profile" className="text-brand-700 underline">
            {tu("profileHeading")}
          </Link>
        </p>
        <h1 className="text-2xl font-bold">{tStatus("settingsHeading")}</h1>
      </div>
      {notice ? ALERT_NOTICES.has(notice) ? <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm font-medium text-red-800">{ts(notice)}</p> : <Done text={ts(notice)} /> : null}

      <section aria-labelledby="account-email-heading" className={SECTION}>
        <h2 id="account-email-heading" className={H2}>
          {tStatus("verifyTitle")}
        </h2>
        {account.placeholder ? (
          <>
            <p>
              <span data-testid="email-missing" className="rounded-full bg-slate-100 px-2 py-0.5 text-sm font-bold text-slate-800">
                {ts("noAddress")}
              </span>
            </p>
            <p className="text-sm text-slate-700">{ts("noAddressExplain")}</p>
          </>
        ) : (
          <p className="flex flex-wrap items-center gap-3">
            <span>{account.email}</span>
            <span
              data-testid="email-verified-state"
              className={`rounded-full px-2 py-0.5 text-sm font-bold ${account.emailVerified ? "bg-green-100 text-green-800" : "bg-amber-100 text-amber-900"}`}
            >
              {account.emailVerified ? tStatus("verifyVerified") : tStatus("verifyUnverified")}
            </span>
          </p>
        )}
        {!account.emailVerified && !account.placeholder ? (
          <>
            <p className="text-sm text-slate-700">{ts("verifyExplain")}</p>
            {ok("resendVerification") ? (
              <MailSentNotice title={ts("verifyResent")} sender={sender} email={account.email} />
            ) : (
              <Form method="post">
                <input type="hidden" name="intent" value="resendVerification" />
                <ErrorText actionData={actionData} intent="resendVerification" />
                <SubmitButton pending={pending("resendVerification")}>{ts("verifyResend")}</SubmitButton>
              </Form>
            )}
          </>
        ) : null}
      </section>

      <section aria-labelledby="account-change-email-heading" className={SECTION}>
        <h2 id="account-change-email-heading" className={H2}>
          {account.placeholder ? ts("addEmailHeading") : ts("changeEmailHeading")}
        </h2>
        {loginMethods.password ? (
          <>
            {ok("changeEmail") ? <MailSentNotice title={ts("changeEmailSent")} sender={sender} email={actionData?.sentTo} /> : null}
            <Form method="post" className="space-y-4" noValidate>
              <input type="hidden" name="intent" value="changeEmail" />
              <ErrorText actionData={actionData} intent="changeEmail" />
              <FormField id="account-new-email" name="newEmail" type="email" autoComplete="email" required maxLength={254} label={ts("changeEmailNew")} error={fieldError(actionData, "changeEmail", "newEmail")} />
              <FormField id="account-change-email-password" name="currentPassword" type="password" autoComplete="current-password" required maxLength={PASSWORD_MAX} label={ts("currentPassword")} error={fieldError(actionData, "changeEmail", "currentPassword")} />
              <SubmitButton pending={pending("changeEmail")}>{ts("changeEmailSubmit")}</SubmitButton>
            </Form>
          </>
        ) : (
          <>
            {ok("addEmail") ? <MailSentNotice title={ts("addEmailSent")} sender={sender} email={actionData?.sentTo} /> : null}
            <Form method="post" className="space-y-4" noValidate>
              <input type="hidden" name="intent" value="addEmail" />
              <ErrorText actionData={actionData} intent="addEmail" />
              <FormField id="account-new-email" name="newEmail" type="email" autoComplete="email" required maxLength={254} label={ts("changeEmailNew")} error={fieldError(actionData, "addEmail", "newEmail")} />
              <SubmitButton pending={pending("addEmail")}>{ts("addEmailSubmit")}</SubmitButton>
            </Form>
            {refusalFor(actionData, "addEmail")?.code === "recent_sign_in_required" && loginMethods.lineAvailable ? <LineLoginButton redirectTo="/profile/account" label={ts("lineAgain")} /> : null}
          </>
        )}
      </section>

      <section aria-labelledby="account-password-heading" className={SECTION}>
        <h2 id="account-password-heading" className={H2}>
          {ts("changePasswordHeading")}
        </h2>
        {loginMethods.password ? (
          <>
            {ok("changePassword") ? <Done text={ts("changePasswordDone")} /> : null}
            <Form method="post" className="space-y-4" noValidate>
              <input type="hidden" name="intent" value="changePassword" />
              <ErrorText actionData={actionData} intent="changePassword" />
              <FormField id="account-current-password" name="currentPassword" type="password" autoComplete="current-password" required maxLength={PASSWORD_MAX} label={ts("currentPassword")} error={fieldError(actionData, "changePassword", "currentPassword")} />
              <FormField
                id="account-new-password"
                name="newPassword"
                type="password"
                autoComplete="new-password"
                required
                maxLength={PASSWORD_MAX}
                label={ts("newPassword")}
                hint={tu("passwordHint", { min: PASSWORD_MIN, max: PASSWORD_MAX })}
                error={fieldError(actionData, "changePassword", "newPassword")}
              />
              <SubmitButton pending={pending("changePassword")}>{ts("changePasswordSubmit")}</SubmitButton>
            </Form>
          </>
        ) : (
          <p className="text-sm text-slate-700">{ts("noPassword")}</p>
        )}
      </section>

      <section aria-labelledby="account-login-methods-heading" className={SECTION}>
        <h2 id="account-login-methods-heading" className={H2}>
          {ts("loginMethodsHeading")}
        </h2>
        {ok("unlinkLine") ? <Done text={ts("lineUnlinked")} /> : null}
        <ErrorText actionData={actionData} intent="unlinkLine" />
        <dl className="divide-y divide-slate-200" data-testid="login-methods">
          <div className="flex flex-wrap items-center justify-between gap-3 py-3">
            <dt className="font-medium">{ts("loginMethodsPassword")}</dt>
            <dd className="text-sm text-slate-700">{loginMethods.password ? ts("loginMethodsOn") : ts("loginMethodsOff")}</dd>
          </div>
          {loginMethods.lineAvailable || loginMethods.line ? (
            <div className="flex flex-wrap items-center justify-between gap-3 py-3">
              <dt className="font-medium">{ts("loginMethodsLine")}</dt>
              <dd className="text-sm text-slate-700">
                {loginMethods.line ? ts("loginMethodsLinkedOn", { date: tokyoMediumDateTime(new Date(loginMethods.line.linkedAt).toISOString(), locale) }) : ts("loginMethodsOff")}
              </dd>
            </div>
          ) : null}
        </dl>
        {loginMethods.line ? (
          <Form method="post">
            <input type="hidden" name="intent" value="unlinkLine" />
            <SubmitButton pending={pending("unlinkLine")}>{ts("lineUnlinkSubmit")}</SubmitButton>
          </Form>
        ) : loginMethods.lineAvailable && loginMethods.password ? (
          <Form method="post" reloadDocument className="space-y-4" noValidate>
            <input type="hidden" name="intent" value="linkLine" />
            <p className="text-sm text-slate-700">{ts("lineLinkExplain")}</p>
            <ErrorText actionData={actionData} intent="linkLine" />
            <FormField id="account-link-line-password" name="currentPassword" type="password" autoComplete="current-password" required maxLength={PASSWORD_MAX} label={ts("currentPassword")} error={fieldError(actionData, "linkLine", "currentPassword")} />
            <SubmitButton pending={pending("linkLine")}>{ts("lineLinkSubmit")}</SubmitButton>
          </Form>
        ) : null}
      </section>

      <section aria-labelledby="account-sessions-heading" className={SECTION}>
        <h2 id="account-sessions-heading" className={H2}>
          {ts("sessionsHeading")}
        </h2>
        {ok("revokeSession") ? <Done text={ts("sessionsLoggedOut")} /> : null}
        {ok("revokeOthers") ? <Done text={ts("sessionsLoggedOutOthers")} /> : null}
        <ErrorText actionData={actionData} intent="revokeSession" />
        <ul className="divide-y divide-slate-200" data-testid="account-sessions">
          {sessions.map((s) => (
            <li key={s.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
              <div>
                <p className="font-medium">
                  {s.browser && s.os ? ts("sessionsDevice", { browser: s.browser, os: s.os }) : (s.browser ?? s.os ?? ts("sessionsUnknownDevice"))}
                  {s.current ? <span className="ml-2 rounded-full bg-brand-100 px-2 py-0.5 text-xs font-bold text-brand-800">{ts("sessionsCurrent")}</span> : null}
                </p>
                {/* Two browsers of one kind differ in these: the second they signed in, their last use and where from. */}
                <p className="text-sm text-slate-600">
                  {ts("sessionsLastActive", { time: tokyoDateTimeSeconds(s.lastActiveAt, locale) })} ・ {ts("sessionsSignedIn", { time: tokyoDateTimeSeconds(s.createdAt, locale) })}
                </p>
                {s.address ? <p className="text-sm text-slate-600">{ts("sessionsAddress", { address: s.address })}</p> : null}
              </div>
              {s.current ? null : (
                <Form method="post">
                  <input type="hidden" name="intent" value="revokeSession" />
                  <input type="hidden" name="sessionId" value={s.id} />
                  <button type="submit" className="rounded-md border border-slate-300 px-3 py-1 text-sm font-medium hover:bg-slate-50">
                    {ts("sessionsLogout")}
                  </button>
                </Form>
              )}
            </li>
          ))}
        </ul>
        {sessions.some((s) => !s.current) ? (
          <Form method="post">
            <input type="hidden" name="intent" value="revokeOthers" />
            <SubmitButton pending={pending("revokeOthers")}>{ts("sessionsLogoutOthers")}</SubmitButton>
          </Form>
        ) : null}
      </section>

      <section aria-labelledby="account-export-heading" className={SECTION}>
        <h2 id="account-export-heading" className={H2}>
          {ts("exportHeading")}
        </h2>
        <p className="text-sm text-slate-700">{ts("exportExplain")}</p>
        <div className="flex flex-wrap gap-3">
          <a href="/profile/account/export" download className="inline-block rounded-md bg-brand-700 px-5 py-2 font-bold text-white hover:bg-brand-800">
            {ts("exportSubmit")}
          </a>
          <a href="/profile/account/export.csv" download className="inline-block rounded-md border border-brand-700 px-5 py-2 font-bold text-brand-800 hover:bg-brand-50">
            {ts("exportSummarySubmit")}
          </a>
        </div>
      </section>

      <section aria-labelledby="account-delete-heading" className="space-y-4 rounded-lg border border-red-200 bg-white p-6">
        <h2 id="account-delete-heading" className={H2}>
          {ts("deleteHeading")}
        </h2>
        <p>{ts("deleteExplain")}</p>
        <ul className="list-disc space-y-1 pl-6 text-sm">
          <li>{ts("deleteWhat1")}</li>
          <li>{ts("deleteWhat2")}</li>
          <li>{ts("deleteWhat3")}</li>
          <li>{ts("deleteWhat4")}</li>
          <li>{ts("deleteWhat5")}</li>
        </ul>
        <Form method="post" className="space-y-4" noValidate>
          <input type="hidden" name="intent" value="deleteAccount" />
          <ErrorText actionData={actionData} intent="deleteAccount" />
          {loginMethods.password ? (
            <FormField id="account-delete-password" name="password" type="password" autoComplete="current-password" required maxLength={PASSWORD_MAX} label={ts("deletePassword")} error={fieldError(actionData, "deleteAccount", "deletePassword")} />
          ) : (
            <p className="text-sm text-slate-700">{ts("deletePasswordless", { minutes: recentSignInMinutes })}</p>
          )}
          <div className="space-y-1">
            <label className="flex items-center gap-2">
              <input type="checkbox" name="confirm" id="account-delete-confirm" aria-describedby={fieldError(actionData, "deleteAccount", "confirm") ? "account-delete-confirm-error" : undefined} />
              {ts("deleteConfirm")}
            </label>
            {fieldError(actionData, "deleteAccount", "confirm") ? (
              <p id="account-delete-confirm-error" role="alert" className="text-sm font-medium text-red-700">
                {fieldError(actionData, "deleteAccount", "confirm")}
              </p>
            ) : null}
          </div>
          <button type="submit" disabled={pending("deleteAccount")} className="rounded-md bg-red-700 px-5 py-2 font-bold text-white hover:bg-red-800 disabled:opacity-60">
            {ts("deleteSubmit")}
          </button>
        </Form>
      </section>
    </div>
  );
}
