import type { ReactNode } from "react";
import { CopyButton } from "#app/components/ui/copy-button.tsx";
import { formatFriendId } from "#app/lib/friend-id.ts";
import { useLocale, useT } from "#app/lib/i18n.tsx";
import { relativeTime, tokyoShortDateTime } from "#app/lib/tokyo-time.ts";
import { ResponseRecordLine, type ResponseRecordView } from "#app/features/users/components/response-record.tsx";
import { friendsMessages } from "#app/features/friends/messages.ts";
import type { FriendPostView } from "#app/features/friends/friends.server.ts";
import { PURPOSE_KEYS } from "./purpose-label";

/** A post as the board's loader sends it: the service's view, its record as the page reads it. */
export type FriendPostCardView = Omit<FriendPostView, "ownerId" | "record"> & { record: ResponseRecordView };

/** One フレンド募集 post: who, their friend ID (copyable), what for, when, and how they answer. */
export function FriendPostCard({ post, now, headingLevel = 3, children }: { post: FriendPostCardView; now: string; headingLevel?: 2 | 3; children?: ReactNode }) {
  const t = useT(friendsMessages);
  const locale = useLocale();
  const Heading = headingLevel === 2 ? "h2" : "h3";
  const formatted = formatFriendId(post.friendId);
  return (
    <article className="space-y-2 rounded-xl border border-slate-200 bg-white p-4" data-testid="friend-post" data-post-id={post.id}>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <Heading className="font-bold">{post.displayName}</Heading>
        <span className="text-xs text-slate-600">
          <time dateTime={post.postedAt}>{t("postedAt", { time: tokyoShortDateTime(post.postedAt, locale) })}</time>
          {" ・ "}
          <time dateTime={post.expiresAt}>{t("expiresAt", { time: tokyoShortDateTime(post.expiresAt, locale) })}</time>
        </span>
      </div>
      <p className="flex flex-wrap items-center gap-2">
        <span className="text-sm text-slate-700">{t("friendId")}</span>
        <span className="font-mono text-lg tracking-wider" data-testid="friend-post-id">
          {formatted}
        </span>
        <CopyButton text={post.friendId} ariaLabel={t("copyFriendId", { name: post.displayName })} buttonText={t("copy")} copiedText={t("copied")} failedText={t("copyFailed")} />
      </p>
      <ul className="flex flex-wrap gap-2" aria-label={t("purpose")}>
        {post.purposes.map((purpose) => (
          <li key={purpose} className="rounded-full bg-brand-50 px-3 py-0.5 text-sm font-bold text-brand-800">
            {t(PURPOSE_KEYS[purpose])}
          </li>
        ))}
      </ul>
      {post.sets.length ? (
        <p className="text-sm text-slate-700">
          {t("set")}：{post.sets.map((s) => (locale === "en" ? s.nameEn : s.nameJa)).join("、")}
        </p>
      ) : null}
      {post.comment ? <p className="whitespace-pre-wrap break-words">{post.comment}</p> : null}
      <p className="text-sm text-slate-700">{t("lastActive", { time: relativeTime(post.lastActiveAt, now, locale, t("justNow")) })}</p>
      <ResponseRecordLine record={post.record} />
      {children ? <div className="flex flex-wrap items-center gap-3 pt-1">{children}</div> : null}
    </article>
  );
}
