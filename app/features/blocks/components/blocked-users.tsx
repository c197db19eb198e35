import { Form } from "react-router";
import { useT } from "#app/lib/i18n.tsx";
import { blocksMessages } from "#app/features/blocks/messages.ts";

/** /profile: the users this user blocked, each with 解除 (posts to /profile/blocks/{userId}). */
export function BlockedUsers({ users, unblocked }: { users: { userId: string; displayName: string }[]; unblocked: boolean }) {
  const t = useT(blocksMessages);
  return (
    <section aria-labelledby="blocked-users" className="space-y-4">
      <h2 id="blocked-users" className="text-xl font-bold">
        {t("blockedUsers")}
      </h2>
      {unblocked ? (
        <p role="status" className="rounded-md bg-green-50 px-3 py-2 text-sm font-medium text-green-800">
          {t("unblocked")}
        </p>
      ) : null}
      {users.length === 0 ? (
        <p className="rounded-lg border border-slate-200 bg-white p-4 text-slate-700">{t("blockedUsersEmpty")}</p>
      ) : (
        <ul className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white">
          {users.map((user) => (
            <li key={user.userId} className="flex items-center justify-between gap-3 px-4 py-3">
              <span className="font-medium">{user.displayName}</span>
              <Form method="post" action={`/profile/blocks/${user.userId}`}>
                <button
                  type="submit"
                  aria-label={t("unblockLabel", { name: user.displayName })}
                  className="rounded-full border border-slate-400 px-3 py-1 text-xs font-bold text-slate-800 hover:border-brand-600"
                >
                  {t("unblock")}
                </button>
              </Form>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
