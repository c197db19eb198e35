import { NOTIFICATION_KINDS } from "#app/features/notifications/types.ts";
import { formatClock, parseClock } from "#app/features/push/preferences.ts";
import { getNotificationPreferences, saveNotificationPreferences } from "#app/features/push/preferences.server.ts";
import { NotificationSettingsSchema } from "#app/features/push/settings.schema.ts";
import { countSubscriptions, hasSubscription } from "#app/features/push/subscriptions.server.ts";
import { requireApiViewer } from "#app/features/users/session.server.ts";
import { methodNotAllowed, withJsonErrors } from "#app/lib/api.server.ts";
import { localeFromRequest } from "#app/lib/i18n.tsx";
import { readInput } from "#app/lib/input.server.ts";
import { pushMessages } from "#app/features/push/messages.ts";
import type { Route } from "./+types/api.notifications.settings";
import { readQuery } from "#app/lib/input.server.ts";
import { z } from "#app/lib/zod.ts";

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
