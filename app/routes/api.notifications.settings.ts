import { NOTIFICATION_KINDS } from "../features/notifications/types";
import { formatClock, parseClock } from "../features/push/preferences";
import { getNotificationPreferences, saveNotificationPreferences } from "../features/push/preferences.server";
import { NotificationSettingsSchema } from "../features/push/settings.schema";
import { countSubscriptions, hasSubscription } from "../features/push/subscriptions.server";
import { requireApiViewer } from "../features/users/session.server";
import { methodNotAllowed, withJsonErrors } from "../lib/api.server";
import { localeFromRequest } from "../lib/i18n";
import { readInput } from "../lib/input.server";
import { pushMessages } from "../features/push/messages";
import type { Route } from "./+types/api.notifications.settings";
import { readQuery } from "../lib/input.server";
import { z } from "../lib/zod";

/**
 * GET /api/notifications/settings[?endpoint=…] → {kinds, channels, quiet, previews, mailDelaySeconds,
 * vapidPublicKey, devices, thisDevice}: the settings panel of the profile; mailDelaySeconds is how
 * long a notification waits unread before it is mailed (NOTIFICATION_MAIL_DELAY_SECONDS); thisDevice says whether the browser's push
 * endpoint (the query) is registered to the viewer (false without one). PUT with {channels, quiet, previews?} saves them (quiet hours in JST, HH:MM).
 */
/** `?endpoint=` this browser's push endpoint, to say whether it is registered (longer ones are cut to the stored length). */
const SettingsQuerySchema = z.object({ endpoint: z.string().optional() });

export const loader = withJsonErrors(async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = await requireApiViewer(request, context);
  const prefs = await getNotificationPreferences(context.db, viewer.id);
  const { endpoint } = readQuery(request, SettingsQuerySchema);
  return Response.json(
    {
      kinds: NOTIFICATION_KINDS,
      channels: prefs.channels,
      quiet: prefs.quiet ? { start: formatClock(prefs.quiet.start), end: formatClock(prefs.quiet.end), mode: prefs.quiet.mode, exempt: prefs.quiet.exempt } : null,
      previews: prefs.previews,
      mailDelaySeconds: context.env.notificationMailDelaySeconds,
      vapidPublicKey: context.env.vapid.publicKey,
      devices: await countSubscriptions(context.db, viewer.id),
      thisDevice: endpoint ? await hasSubscription(context.db, viewer.id, endpoint.slice(0, 2048)) : false,
    },
    { headers: { "Cache-Control": "private, no-store" } },
  );
});

export const action = withJsonErrors(async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "PUT") throw methodNotAllowed("GET, PUT");
  const viewer = await requireApiViewer(request, context);
  const { channels, quiet, previews } = await readInput(request, NotificationSettingsSchema, { accept: ["json"], messages: pushMessages, fallback: "errorInvalidSettings", code: "invalid_settings" });
  const saved = await getNotificationPreferences(context.db, viewer.id);
  await saveNotificationPreferences(context.db, viewer.id, {
    // A kind the page did not send (it was opened before the kind existed) keeps its saved choice.
    channels: Object.fromEntries(NOTIFICATION_KINDS.map((kind) => [kind, channels[kind] ?? saved.channels[kind]])) as typeof saved.channels,
    quiet: quiet ? { start: parseClock(quiet.start)!, end: parseClock(quiet.end)!, mode: quiet.mode, exempt: quiet.exempt } : null,
    previews: previews ?? saved.previews,
    locale: localeFromRequest(request),
  });
  return Response.json({ ok: true });
});
