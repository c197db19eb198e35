import { HttpError, pageError, withPageErrors } from "#app/lib/api.server.ts";
import { InputError, readQuery } from "#app/lib/input.server.ts";
import { localeFromRequest } from "#app/lib/i18n.tsx";
import { Form, Link } from "react-router";
import { localeOfMatches } from "#app/components/layout/meta-locale.ts";
import { RouteError } from "#app/components/ui/route-error.tsx";
import { ChatRoomsList } from "#app/features/chat/components/chat-rooms-list.tsx";
import { NotificationList } from "#app/features/notifications/components/notification-list.tsx";
import { WantList } from "#app/features/notifications/components/want-list.tsx";
import { readNotificationsPage } from "#app/features/notifications/notifications-page.server.ts";
import { notificationsMessages } from "#app/features/notifications/messages.ts";
import { NotificationActionSchema, NotificationCursorSchema } from "#app/features/notifications/notifications.schema.ts";
import { markAllNotificationsRead, markNotificationRead } from "#app/features/notifications/notifications.server.ts";
import { requireViewer } from "#app/features/users/session.server.ts";
import { readFormData } from "#app/lib/forms.server.ts";
import { translate, useT } from "#app/lib/i18n.tsx";
import { seoMeta } from "#app/lib/seo.ts";
import type { Route } from "./+types/notifications";
import { z } from "#app/lib/zod.ts";

export const meta: Route.MetaFunction = (args) => {
  const locale = localeOfMatches(args.matches);
  return seoMeta(args, { title: translate(notificationsMessages, locale, "title"), description: translate(notificationsMessages, locale, "description"), noindex: true });
};

/** The inbox's query: `?before=` the cursor of the next older page (a damaged one is refused, 400). */
const NotificationsPageQuerySchema = z.object({ before: NotificationCursorSchema.optional() });

export const loader = withPageErrors(async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = await requireViewer(request, context);
  const { before } = readQuery(request, NotificationsPageQuerySchema);
  // One round trip for the page's reads (docs/decisions/026).
  const page = await readNotificationsPage(context.db, viewer.id, { before });
  return { ...page, now: new Date().toISOString() };
});

export async function action({ request, context }: Route.ActionArgs) {
  const viewer = await requireViewer(request, context);
  const form = await readFormData(request);
  const parsed = NotificationActionSchema.safeParse(Object.fromEntries(form));
  if (!parsed.success) throw pageError(new InputError("unreadable"), localeFromRequest(request));
  if (parsed.data.intent === "read-all") {
    await markAllNotificationsRead(context.db, viewer.id);
  } else if (!(await markNotificationRead(context.db, viewer.id, parsed.data.id))) {
    throw pageError(new HttpError("not_found"), localeFromRequest(request));
  }
  return { ok: true };
}

export default function Notifications({ loaderData }: Route.ComponentProps) {
  const t = useT(notificationsMessages);
  const { items, nextCursor, chatRooms, wantedCards, now } = loaderData;
  const anyUnread = items.some((n) => !n.read);
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold">{t("heading")}</h1>
        <div className="flex items-center gap-3">
          <a href="#profile-chats" className="text-sm font-medium text-brand-800 underline underline-offset-2">
            {t("chatsHeading")}
          </a>
          {anyUnread ? (
            <Form method="post">
              <input type="hidden" name="intent" value="read-all" />
              <button type="submit" className="rounded-md border border-slate-400 bg-white px-3 py-1.5 text-sm font-medium text-slate-800 hover:border-brand-600">
                {t("markAllRead")}
              </button>
            </Form>
          ) : null}
        </div>
      </div>
      {items.length === 0 ? <p className="text-slate-700">{t("empty")}</p> : <NotificationList items={items} now={now} />}
      {nextCursor ? (
        <p>
          <Link to={`/notifications?before=${encodeURIComponent(nextCursor)}`} className="text-sm font-medium text-brand-800 underline underline-offset-2">
            {t("more")}
          </Link>
        </p>
      ) : null}
      <ChatRoomsList rooms={chatRooms} />
      <WantList cards={wantedCards} />
    </div>
  );
}

export function ErrorBoundary() {
  return <RouteError />;
}
