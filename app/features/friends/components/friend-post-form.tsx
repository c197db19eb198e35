import { Form, useNavigation } from "react-router";
import { SubmitButton } from "#app/components/ui/submit-button.tsx";
import { TextareaField } from "#app/components/ui/form-field.tsx";
import { fieldMessage, formMessage } from "#app/lib/form-refusal.ts";
import type { PageRefusal } from "#app/lib/errors.ts";
import { useLocale, useT } from "#app/lib/i18n.tsx";
import { friendsMessages } from "#app/features/friends/messages.ts";
import { FRIEND_COMMENT_MAX_LENGTH, FRIEND_PURPOSES, type FriendPurpose } from "#app/features/friends/rules.ts";
import { PURPOSE_KEYS } from "./purpose-label";

type Draft = { purposes: FriendPurpose[]; comment: string; setCodes: string[] };

/**
 * The post form (募集する / 変更を保存する): purposes, a comment and the sets being opened. A plain
 * form, so it posts without scripts too; the server's refusal shows at its field.
 */
export function FriendPostForm({
  sets,
  draft,
  postId,
  refusal,
}: {
  sets: { code: string; nameJa: string; nameEn: string }[];
  draft: Draft | null;
  postId: string | null;
  refusal: PageRefusal | undefined;
}) {
  const t = useT(friendsMessages);
  const locale = useLocale();
  const navigation = useNavigation();
  const pending = navigation.state === "submitting" && navigation.formData?.get("intent") === (postId ? "edit" : "create");
  const general = formMessage(refusal);
  const purposeError = fieldMessage(refusal, "purposes");
  const setsError = fieldMessage(refusal, "setCodes");
  return (
    <Form method="post" className="space-y-4" aria-labelledby="friend-form-heading" data-testid="friend-post-form">
      <input type="hidden" name="intent" value={postId ? "edit" : "create"} />
      {postId ? <input type="hidden" name="postId" value={postId} /> : null}
      {general ? (
        <p role="alert" className="rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm font-medium text-red-800">
          {general}
        </p>
      ) : null}
      <fieldset aria-describedby={purposeError ? "friend-purposes-error" : undefined}>
        <legend className="text-sm font-medium">{t("purposesLegend")}</legend>
        <div className="mt-1 flex flex-wrap gap-x-4 gap-y-2">
          {FRIEND_PURPOSES.map((purpose) => (
            <label key={purpose} className="flex min-h-11 items-center gap-2">
              <input type="checkbox" name="purposes" value={purpose} defaultChecked={draft?.purposes.includes(purpose) ?? false} className="size-5" />
              {t(PURPOSE_KEYS[purpose])}
            </label>
          ))}
        </div>
        {purposeError ? (
          <p id="friend-purposes-error" role="alert" className="text-sm font-medium text-red-700">
            {purposeError}
          </p>
        ) : null}
      </fieldset>
      <TextareaField
        id="friend-comment"
        name="comment"
        label={t("comment")}
        placeholder={t("commentPlaceholder")}
        maxLength={FRIEND_COMMENT_MAX_LENGTH}
        rows={3}
        defaultValue={draft?.comment ?? ""}
        counterText={(count, max) => t("commentCounter", { count, max })}
        error={fieldMessage(refusal, "comment")}
      />
      {sets.length ? (
        // Closed until wanted (or already chosen): two dozen sets would push the board itself far
        // down a phone's screen.
        <details open={Boolean(setsError) || Boolean(draft?.setCodes.length)} className="rounded-lg border border-slate-200 px-3 py-2">
          <summary id="friend-sets-summary" className="min-h-11 cursor-pointer content-center text-sm font-medium">
            {t("setsLegend")}
          </summary>
          <fieldset aria-labelledby="friend-sets-summary" aria-describedby={setsError ? "friend-sets-error" : undefined}>
            <div className="mt-1 grid grid-cols-2 gap-x-4">
              {sets.map((set) => (
                <label key={set.code} className="flex min-h-11 items-center gap-2">
                  <input type="checkbox" name="setCodes" value={set.code} defaultChecked={draft?.setCodes.includes(set.code) ?? false} className="size-5" />
                  {locale === "en" ? set.nameEn : set.nameJa}
                </label>
              ))}
            </div>
            {setsError ? (
              <p id="friend-sets-error" role="alert" className="text-sm font-medium text-red-700">
                {setsError}
              </p>
            ) : null}
          </fieldset>
        </details>
      ) : null}
      <SubmitButton pending={pending} pendingText={t("sending")}>
        {postId ? t("submitEdit") : t("submitPost")}
      </SubmitButton>
    </Form>
  );
}
