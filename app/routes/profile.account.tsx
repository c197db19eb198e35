import { HttpError, pageError } from "#app/lib/api.server.ts";
import { data, redirect } from "react-router";
import { localeOfMatches } from "#app/components/layout/meta-locale.ts";
import { AccountSettings } from "#app/features/users/components/account-settings.tsx";
import { accountMessages } from "#app/features/users/account-messages.ts";
import { accountStatusMessages } from "#app/features/users/account-status-messages.ts";
import { AddEmailSchema, ChangeEmailSchema, ChangePasswordSchema, DeleteAccountSchema, DeletePasswordlessSchema, LinkLineSchema } from "#app/features/users/account.schema.ts";
import { isPlaceholderAddress } from "#app/features/users/line-login.server.ts";
import { loginMethods, startLineLink, unlinkLine } from "#app/features/users/login-methods.server.ts";
import { hasPassword, isRecentSignIn, RECENT_SIGN_IN_MINUTES } from "#app/features/users/ways-in.server.ts";
import { senderAddress } from "#app/features/users/mail-address.ts";
import { deleteAccount, getAccountSummary, listSessions, resendVerification, revokeOtherSessions, revokeSession, verifyAccountPassword } from "#app/features/users/account.server.ts";
import { AccountError } from "#app/features/users/account-errors.ts";
import { queuePasswordChangedMail } from "#app/features/users/account-mail.server.ts";
import { callAuthEndpoint, cookiesOf, SESSION_COOKIE } from "#app/features/users/auth.server.ts";
import { requireViewer, sessionTokenFromCookie } from "#app/features/users/session.server.ts";
import { bindSubscriptions, holdSessionSubscriptions } from "#app/features/push/subscriptions.server.ts";
import { fieldErrors } from "#app/features/users/users.schema.ts";
import { MESSAGE_PARAMS } from "#app/features/users/users-form.ts";
import { usersMessages, type UsersMessageKey } from "#app/features/users/messages.ts";
import { formError, formRefusal } from "#app/lib/api.server.ts";
import type { ErrorAnswer } from "#app/lib/errors.ts";
import { authRefusal } from "#app/features/users/account-auth.server.ts";
import { requestLog } from "#app/lib/logger.server.ts";
import { readFormData } from "#app/lib/forms.server.ts";
import { localeFromRequest, translate, type Locale } from "#app/lib/i18n.tsx";
import { seoMeta } from "#app/lib/seo.ts";
import type { Route } from "./+types/profile.account";
import { readQuery } from "#app/lib/input.server.ts";
import { z } from "#app/lib/zod.ts";

export const meta: Route.MetaFunction = (args) => {
  const locale = localeOfMatches(args.matches);
  const title = translate(accountStatusMessages, locale, "settingsHeading");
  return seoMeta(args, { title, description: title, noindex: true });
};

export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = await requireViewer(request, context);
  const summary = await getAccountSummary(context.db, viewer.id);
  if (!summary) throw pageError(new HttpError("not_found"), localeFromRequest(request));
  const query = readQuery(request, AccountQuerySchema);
  return {
    account: { ...summary, placeholder: isPlaceholderAddress(summary.email) },
    sessions: await listSessions(context.db, viewer.id, sessionTokenFromCookie(request.headers.get("cookie"), context.env)),
    loginMethods: await loginMethods(context.db, context.env, viewer.id),
    recentSignInMinutes: RECENT_SIGN_IN_MINUTES,
    sender: senderAddress(context.env.mailFrom),
    notice: accountNotice(query),
  } as const;
}

/** What the page says on arrival: after a verification link, a change of address, or a LINE link (the library's `?error=`). */
/** Where the account page was sent back from: a verification link, a change of address, LINE's link (with the library's `error`). */
const AccountQuerySchema = z.object({
  verified: z.string().optional(),
  emailChanged: z.string().optional(),
  lineLinked: z.string().optional(),
  error: z.string().optional(),
});

function accountNotice({ verified, emailChanged, lineLinked, error }: z.output<typeof AccountQuerySchema>) {
  if (verified === "1") return error ? "verifyFailed" : "verifyDone";
  if (emailChanged === "1") return error ? "verifyFailed" : "changeEmailDone";
  if (lineLinked === "1") return "lineLinked";
  if (error === "account_already_linked_to_different_user") return "lineLinkTaken";
  if (error) return "lineLinkFailed";
  return null;
}

/** The account page's answers: `{ intent, ok, sentTo? }`, or a page refusal `{ intent, code, message, fields? }`. */
type AccountActionData = {
  intent: string;
  ok?: boolean;
  sentTo?: string;
  code?: string;
  message?: string;
  fields?: Record<string, string>;
};

export async function action({ request, context }: Route.ActionArgs) {
  const viewer = await requireViewer(request, context);
  const locale = localeFromRequest(request);
  const form = await readFormData(request);
  const intent = String(form.get("intent") ?? "");
  const fail = (message: string, field?: string, code = "invalid_input") => formRefusal({ status: 400, code, message, ...(field ? { fields: { [field]: message } } : {}) }, { intent });
  try {
    switch (intent) {
      case "resendVerification": {
        await resendVerification(context.db, context.env, viewer.id, locale);
        return { intent, ok: true, sentTo: viewer.email } satisfies AccountActionData;
      }
      case "addEmail": {
        // An account without a password (LINE only) adds an address after a LINE sign-in of the last minutes.
        if (await hasPassword(context.db, viewer.id)) return fail(tUsers(locale, "errorInvalidRequest"), undefined, "bad_request");
        const parsed = AddEmailSchema.safeParse({ newEmail: form.get("newEmail") ?? "" });
        if (!parsed.success) return fail(tUsers(locale, fieldErrors<"newEmail">(parsed.error).newEmail), "newEmail");
        if (!(await isRecentSignIn(context.db, viewer.sessionId))) throw new AccountError("recent_sign_in_required", { minutes: RECENT_SIGN_IN_MINUTES });
        const response = await callAuthEndpoint(context.db, context.env, request, "/change-email", { newEmail: parsed.data.newEmail, callbackURL: "/profile/account?emailChanged=1" });
        if (!response.ok) return authFailure(await authRefusal(response, locale), intent, "newEmail");
        return { intent, ok: true, sentTo: parsed.data.newEmail } satisfies AccountActionData;
      }
      case "linkLine": {
        const parsed = LinkLineSchema.safeParse({ currentPassword: form.get("currentPassword") ?? "" });
        if (!parsed.success) return fail(translate(accountMessages, locale, "errorCurrentPassword"), "currentPassword");
        const line = await startLineLink(context.db, context.env, request, viewer.id, parsed.data.currentPassword);
        throw redirect(line.url, { headers: line.headers });
      }
      case "unlinkLine": {
        await unlinkLine(context.db, context.env, request, viewer.id);
        return { intent, ok: true } satisfies AccountActionData;
      }
      case "changeEmail": {
        const parsed = ChangeEmailSchema.safeParse({ newEmail: form.get("newEmail") ?? "", currentPassword: form.get("currentPassword") ?? "" });
        if (!parsed.success) {
          const errors = fieldErrors<"newEmail" | "currentPassword">(parsed.error);
          if (errors.newEmail) return fail(tUsers(locale, errors.newEmail), "newEmail");
          return fail(translate(accountMessages, locale, "errorCurrentPassword"), "currentPassword");
        }
        if (parsed.data.newEmail.toLowerCase() === viewer.email.toLowerCase()) throw new AccountError("email_same");
        // A session alone must not move the account to another address (a borrowed device, a stolen cookie).
        if (!(await verifyAccountPassword(context.db, context.env, viewer.id, parsed.data.currentPassword))) {
          return fail(translate(accountMessages, locale, "errorCurrentPassword"), "currentPassword", "password_wrong");
        }
        const response = await callAuthEndpoint(context.db, context.env, request, "/change-email", { newEmail: parsed.data.newEmail, callbackURL: "/profile/account?emailChanged=1" });
        if (!response.ok) return authFailure(await authRefusal(response, locale), intent, "newEmail");
        // Better Auth answers the same for an address that is taken: nothing tells who uses it.
        return { intent, ok: true, sentTo: parsed.data.newEmail } satisfies AccountActionData;
      }
      case "changePassword": {
        const parsed = ChangePasswordSchema.safeParse({ currentPassword: form.get("currentPassword") ?? "", newPassword: form.get("newPassword") ?? "" });
        if (!parsed.success) {
          const errors = fieldErrors<"currentPassword" | "newPassword">(parsed.error);
          if (errors.currentPassword) return fail(translate(accountMessages, locale, "errorCurrentPassword"), "currentPassword");
          return fail(tUsers(locale, errors.newPassword), "newPassword");
        }
        // This device keeps its push notifications through the new session the change gives it.
        const held = await holdSessionSubscriptions(context.db, viewer.sessionId);
        const response = await callAuthEndpoint(context.db, context.env, request, "/change-password", { ...parsed.data, revokeOtherSessions: true });
        const newToken = response.ok ? sessionTokenFromCookie(response.headers.getSetCookie().map((c) => c.split(";")[0]).join("; "), context.env) : null;
        await bindSubscriptions(context.db, held, { sessionToken: newToken, otherwiseSessionId: viewer.sessionId });
        if (!response.ok) {
          const refusal = await authRefusal(response, locale);
          if (refusal.code === "invalid_credentials") return fail(translate(accountMessages, locale, "errorCurrentPassword"), "currentPassword", "password_wrong");
          return authFailure(refusal, intent, "newPassword");
        }
        // The password has changed and the other sessions are gone whatever happens to the notice:
        // a failure to queue it is logged, and this device keeps its new session cookie.
        try {
          await queuePasswordChangedMail(context.db, { locale, siteUrl: context.env.siteUrl }, { email: viewer.email, name: viewer.displayName });
        } catch (error) {
          requestLog(context).error("password-changed mail not queued", { userId: viewer.id, error: error instanceof Error ? error.message : String(error) });
        }
        // Better Auth replaced this device's session when it ended the others: pass its cookie on.
        return data<AccountActionData>({ intent, ok: true }, { headers: cookiesOf(response) });
      }
      case "revokeSession": {
        await revokeSession(context.db, viewer.id, String(form.get("sessionId") ?? ""));
        return { intent, ok: true } satisfies AccountActionData;
      }
      case "revokeOthers": {
        const token = sessionTokenFromCookie(request.headers.get("cookie"), context.env);
        if (token) await revokeOtherSessions(context.db, viewer.id, token);
        return { intent, ok: true } satisfies AccountActionData;
      }
      case "deleteAccount": {
        if (!(await hasPassword(context.db, viewer.id))) {
          const confirmed = DeletePasswordlessSchema.safeParse({ confirm: form.get("confirm") ?? "" });
          if (!confirmed.success) return fail(translate(accountMessages, locale, "errorConfirmDelete"), "confirm");
          await deleteAccount(context.db, context.env, viewer.id, { recentSignInSession: viewer.sessionId, locale });
          throw redirect("/login?deleted=1", { headers: clearedSessionCookie(context.env.siteUrl) });
        }
        const parsed = DeleteAccountSchema.safeParse({ password: form.get("password") ?? "", confirm: form.get("confirm") ?? "" });
        if (!parsed.success) {
          const errors = fieldErrors<"password" | "confirm">(parsed.error);
          if (errors.password) return fail(translate(accountMessages, locale, "errorPassword"), "deletePassword");
          return fail(translate(accountMessages, locale, "errorConfirmDelete"), "confirm");
        }
        await deleteAccount(context.db, context.env, viewer.id, { password: parsed.data.password, locale });
        throw redirect("/login?deleted=1", { headers: clearedSessionCookie(context.env.siteUrl) });
      }
      default:
        return fail(tUsers(locale, "errorInvalidRequest"), undefined, "bad_request");
    }
  } catch (error) {
    if (error instanceof AccountError && error.code === "password_wrong") return fail(error.text(locale), "deletePassword", error.code);
    if (error instanceof AccountError && error.code === "current_password_wrong") return fail(error.text(locale), "currentPassword", error.code);
    return formError(error, locale, { intent });
  }
}

function clearedSessionCookie(siteUrl: string): Headers {
  const secure = siteUrl.startsWith("https:");
  const headers = new Headers();
  headers.append("set-cookie", `${secure ? "__Secure-" : ""}${SESSION_COOKIE}=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}`);
  return headers;
}

function tUsers(locale: Locale, key: UsersMessageKey | undefined) {
  return translate(usersMessages, locale, key ?? "errorInvalidRequest", MESSAGE_PARAMS);
}

/** Better Auth's refusal at the field it concerns; a rate limit keeps its 429, anything else is the form's 400. */
function authFailure(refusal: ErrorAnswer, intent: string, field: string) {
  return formRefusal({ ...refusal, status: refusal.status === 429 ? 429 : 400, fields: { [field]: refusal.message } }, { intent });
}

export default function ProfileAccount({ loaderData, actionData }: Route.ComponentProps) {
  return <AccountSettings {...loaderData} actionData={actionData} />;
}
