import { formError, HttpError, pageError } from "#app/lib/api.server.ts";
import { localeFromRequest } from "#app/lib/i18n.tsx";
import { Form, Link, redirect, useNavigation } from "react-router";
import { localeOfMatches } from "#app/components/layout/meta-locale.ts";
import { BlockedUsers } from "#app/features/blocks/components/blocked-users.tsx";
import { ChatRoomsList } from "#app/features/chat/components/chat-rooms-list.tsx";
import { MyOffers } from "#app/features/trades/components/my-offers.tsx";
import { CopyButton } from "#app/components/ui/copy-button.tsx";
import { FormField } from "#app/components/ui/form-field.tsx";
import { SubmitButton } from "#app/components/ui/submit-button.tsx";
import { DISPLAY_NAME_MAX } from "#app/features/users/display-name.ts";
import { formatFriendId } from "#app/lib/friend-id.ts";
import { usersMessages } from "#app/features/users/messages.ts";
import { requireViewer } from "#app/features/users/session.server.ts";
import { useClientValidation } from "#app/features/users/use-client-validation.ts";
import { ProfileSchema, usersFormError } from "#app/features/users/users.schema.ts";
import { updateProfile } from "#app/features/users/users.server.ts";
import { readProfilePage } from "#app/features/profile/profile-page.server.ts";
import { safeRedirect } from "#app/features/users/safe-redirect.ts";
import { isPlaceholderAddress } from "#app/features/users/line-login.server.ts";
import { translate, useLocale, useT } from "#app/lib/i18n.tsx";
import { seoMeta } from "#app/lib/seo.ts";
import { tokyoLongDate } from "#app/lib/tokyo-time.ts";
import { responseRecordMessages, useResponseRecordText } from "#app/features/users/components/response-record.tsx";
import type { Route } from "./+types/profile";
import { readFormData } from "#app/lib/forms.server.ts";
import { AccountCard } from "#app/features/users/components/account-card.tsx";
import { NotificationSettings } from "#app/features/push/components/notification-settings.tsx";
import { readQuery } from "#app/lib/input.server.ts";
import { z } from "#app/lib/zod.ts";
import { RedirectQuerySchema } from "#app/features/users/redirect-query.ts";

export const meta: Route.MetaFunction = (args) => {
  const locale = localeOfMatches(args.matches);
  return seoMeta(args, { title: translate(usersMessages, locale, "profileTitle"), description: translate(usersMessages, locale, "profileDescription"), noindex: true });
};

/** The profile's query: `?unblocked=1` after a block was lifted, `?need=friendId&redirectTo=` when sent here for a friend ID. */
const ProfileQuerySchema = RedirectQuerySchema.extend({ unblocked: z.string().optional(), need: z.string().optional() });

export async function loader({ request, context }: Route.LoaderArgs) {
  const query = readQuery(request, ProfileQuerySchema);
  const viewer = await requireViewer(request, context);
  // One round trip for the page's reads (docs/decisions/026).
  const page = await readProfilePage(context.db, viewer.id);
  if (!page) throw pageError(new HttpError("not_found"), localeFromRequest(request));
  const { profile, record, chatRooms, myOffers, blockedUsers } = page;
  return {
    // A LINE account without an address holds a placeholder that is never shown (docs/decisions/037).
    emailVerified: isPlaceholderAddress(profile.email) ? null : profile.emailVerified,
    profile: {
      email: isPlaceholderAddress(profile.email) ? null : profile.email,
      displayName: profile.displayName,
      friendId: profile.friendId,
      completedTrades: profile.completedTrades,
      memberSince: profile.memberSince,
    },
    record,
    chatRooms,
    myOffers,
    blockedUsers,
    unblocked: query.unblocked === "1",
    // Sent here by 募集を作成 or 交渉する without a friend ID: say why, and go back after saving.
    needFriendId: query.need === "friendId",
    redirectTo: safeRedirect(query.redirectTo, ""),
    now: new Date().toISOString(),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const viewer = await requireViewer(request, context);
  const form = await readFormData(request);
  const values = { displayName: String(form.get("displayName") ?? ""), friendId: String(form.get("friendId") ?? "") };
  const parsed = ProfileSchema.safeParse(values);
  if (!parsed.success) return formError(usersFormError(parsed.error), localeFromRequest(request), { ok: false as const, values });
  await updateProfile(context.db, viewer.id, parsed.data);
  const back = safeRedirect(form.get("redirectTo"), "");
  if (back && parsed.data.friendId) throw redirect(back);
  return { ok: true as const, values };
}

export default function Profile({ loaderData, actionData }: Route.ComponentProps) {
  const t = useT(usersMessages);
  const locale = useLocale();
  const navigation = useNavigation();
  const saving = navigation.state === "submitting" && navigation.formAction?.startsWith("/profile");
  const { profile } = loaderData;
  const { onSubmit, prepare, fieldText, clientChecked } = useClientValidation(() => import("#app/features/users/users.schema.ts").then((m) => m.ProfileSchema), actionData);
  const failedValues = actionData && !actionData.ok ? actionData.values : undefined;
  const memberSince = tokyoLongDate(profile.memberSince, locale);
  const tRecord = useT(responseRecordMessages);
  const recordText = useResponseRecordText(loaderData.record);
  return (
    <div className="space-y-8">
      <section aria-labelledby="profile-heading" className="space-y-4">
        <h1 id="profile-heading" className="text-2xl font-bold">
          {t("profileHeading")}
        </h1>
        <dl className="grid gap-x-6 gap-y-3 rounded-lg border border-slate-200 bg-white p-6 sm:grid-cols-[auto_1fr]">
          <dt className="font-medium text-slate-600">{t("displayName")}</dt>
          {/* Plain text: React escapes it, so a name can never become markup. */}
          <dd className="text-lg font-bold" data-testid="profile-display-name">
            {profile.displayName}
          </dd>
          <dt className="font-medium text-slate-600">{t("profileEmail")}</dt>
          <dd>{profile.email ?? t("profileNoEmail")}</dd>
          <dt className="font-medium text-slate-600">{t("profileFriendId")}</dt>
          <dd className="flex flex-wrap items-center gap-3">
            {profile.friendId ? (
              <>
                <span className="font-mono text-lg tracking-wider" data-testid="profile-friend-id">
                  {formatFriendId(profile.friendId)}
                </span>
                <CopyButton text={profile.friendId} ariaLabel={t("profileCopyFriendId")} buttonText={t("profileCopy")} copiedText={t("profileCopied")} failedText={t("profileCopyFailed")} />
              </>
            ) : (
              <span className="text-slate-600">{t("profileFriendIdNone")}</span>
            )}
          </dd>
          <dt className="font-medium text-slate-600">{t("profileCompletedTrades")}</dt>
          <dd>{t("profileCompletedTradesValue", { count: profile.completedTrades })}</dd>
          <dt className="font-medium text-slate-600">{tRecord("heading")}</dt>
          <dd data-testid="response-record">{recordText}</dd>
          <dt className="font-medium text-slate-600">{t("profileMemberSince")}</dt>
          <dd>
            <time dateTime={profile.memberSince}>{memberSince}</time>
          </dd>
        </dl>
        <p>
          <Link to="/collection" className="font-medium text-brand-800 underline underline-offset-2">
            {t("profileCollectionLink")}
          </Link>
        </p>
      </section>

      <AccountCard emailVerified={loaderData.emailVerified} />

      <section aria-labelledby="profile-edit-heading" className="space-y-4">
        <h2 id="profile-edit-heading" className="text-xl font-bold">
          {t("profileEdit")}
        </h2>
        <Form method="post" onSubmit={onSubmit} onFocus={prepare} className="space-y-4 rounded-lg border border-slate-200 bg-white p-6" noValidate>
          {actionData?.ok && !clientChecked ? (
            <p role="status" className="rounded-md bg-green-50 px-3 py-2 text-sm font-medium text-green-800">
              {t("profileSaved")}
            </p>
          ) : null}
          <FormField
            key={`name-${profile.displayName}`}
            id="profile-display-name-input"
            name="displayName"
            required
            maxLength={DISPLAY_NAME_MAX * 2}
            defaultValue={failedValues?.displayName ?? profile.displayName}
            label={t("displayName")}
            hint={t("displayNameHint", { max: DISPLAY_NAME_MAX })}
            error={fieldText("displayName")}
          />
          {loaderData.redirectTo ? <input type="hidden" name="redirectTo" value={loaderData.redirectTo} /> : null}
          {loaderData.needFriendId && !profile.friendId ? (
            <p role="status" className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm font-medium text-amber-900" data-testid="friend-id-needed">
              {t("profileFriendIdNeeded")}
            </p>
          ) : null}
          <FormField
            key={`friend-${profile.friendId ?? ""}`}
            autoFocus={loaderData.needFriendId && !profile.friendId}
            id="profile-friend-id-input"
            name="friendId"
            inputMode="numeric"
            autoComplete="off"
            maxLength={64}
            placeholder="1234-5678-9012-3456"
            defaultValue={failedValues?.friendId ?? (profile.friendId ? formatFriendId(profile.friendId) : "")}
            label={t("profileFriendId")}
            hint={t("profileFriendIdHint")}
            error={fieldText("friendId")}
          />
          <SubmitButton pending={saving} pendingText={t("profileSaving")}>
            {t("profileSave")}
          </SubmitButton>
        </Form>
      </section>

      {/* Later sections of the profile page (the viewer's trade offers, chat rooms) go below. */}
      <MyOffers offers={loaderData.myOffers} now={loaderData.now} />
      <ChatRoomsList rooms={loaderData.chatRooms} />
      <BlockedUsers users={loaderData.blockedUsers} unblocked={loaderData.unblocked} />
      <NotificationSettings />
    </div>
  );
}
