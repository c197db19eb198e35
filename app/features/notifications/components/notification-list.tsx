import { Form, Link } from "react-router";
import { useLocale, useT } from "#app/lib/i18n.tsx";
import { tokyoDate, tokyoDateTime, tokyoLongDate } from "#app/lib/tokyo-time.ts";
import { notificationsMessages } from "#app/features/notifications/messages.ts";
import { notificationPreview, notificationText } from "./notification-text";
import type { NotificationView } from "#app/features/notifications/types.ts";

/** The sentence of one notification in the reader's language. */
export function useNotificationText(): (n: NotificationView) => string {
  const locale = useLocale();
  return (n) => notificationText(n, locale);
}

/** Notifications grouped by their day in Japan time, newest first, each linking where it happened. */
export function NotificationList({ items, now }: { items: NotificationView[]; now: string }) {
  const t = useT(notificationsMessages);
  const locale = useLocale();
  const text = useNotificationText();
  const today = tokyoDate(now, "ja");
  const yesterday = tokyoDate(new Date(new Date(now).getTime() - 86_400_000).toISOString(), "ja");
  const days: { key: string; label: string; items: NotificationView[] }[] = [];
  for (const item of items) {
    const key = tokyoDate(item.at, "ja");
    let day = days.at(-1);
    if (!day || day.key !== key) {
      const label = key === today ? t("today") : key === yesterday ? t("yesterday") : tokyoLongDate(item.at, locale);
      days.push((day = { key, label, items: [] }));
    }
    day.items.push(item);
  }
  return (
    <div className="space-y-6">
      {days.map((day) => (
        <section key={day.key} aria-labelledby={`day-${day.key.replaceAll("/", "")}`}>
          <h2 id={`day-${day.key.replaceAll("/", "")}`} className="text-sm font-bold text-slate-700">
            {day.label}
          </h2>
          <ul className="mt-2 divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white" data-testid="notifications">
            {day.items.map((n) => (
              <li key={n.id} className={`flex items-start gap-3 px-3 py-3 ${n.read ? "" : "bg-brand-50"}`} data-read={n.read ? "true" : "false"}>
                <span aria-hidden="true" className={`mt-2 h-2.5 w-2.5 shrink-0 rounded-full ${n.read ? "bg-transparent" : "bg-red-700"}`} />
                <div className="min-w-0 flex-1">
                  <Link to={n.href} className={`block text-slate-900 underline-offset-2 hover:underline ${n.read ? "" : "font-bold"}`}>
                    {text(n)}
                  </Link>
                  {n.preview ? <p className="mt-0.5 break-words text-sm text-slate-700">{notificationPreview(n, locale)}</p> : null}
                  <p className="mt-0.5 text-xs text-slate-600">
                    <time dateTime={n.at}>{tokyoDateTime(n.at, locale)}</time>
                    <span className="ml-2">{n.read ? t("read") : t("unread")}</span>
                  </p>
                </div>
                {n.read ? null : (
                  <Form method="post" className="shrink-0">
                    <input type="hidden" name="intent" value="read" />
                    <input type="hidden" name="id" value={n.id} />
                    <button type="submit" className="rounded-md border border-slate-400 bg-white px-2 py-1 text-xs font-medium text-slate-800 hover:border-brand-600">
                      {t("markRead")}
                    </button>
                  </Form>
                )}
              </li>
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
}
