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

/**
 * GET /api/notifications/settings[?endpoint=…] → {kinds, channels, quiet, vapidPublicKey, devices,
 * thisDevice}: the settings panel of the profile; thisDevice says whether the browser's push
 * endpoint (the query) is registered to the viewer (false without one). PUT with {channels, quiet} saves them (quiet hours in JST, HH:MM).
 */
export const loader = withJsonErrors(async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = await requireApiViewer(request, context);
  const prefs = await getNotificationPreferences(context.db, viewer.id);
  const endpoint = new URL(request.url).searchParams.get("endpoint");
  return Response.json(
    {
      kinds: NOTIFICATION_KINDS,
      channels: prefs.channels,
      quiet: prefs.quiet ? { start: formatClock(prefs.quiet.start), end: formatClock(prefs.quiet.end), mode: prefs.quiet.mode } : null,
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
  const { channels, quiet } = await readInput(request, NotificationSettingsSchema, { accept: ["json"], messages: pushMessages, fallback: "errorInvalidSettings", code: "invalid_settings" });
  await saveNotificationPreferences(context.db, viewer.id, {
    channels,
    quiet: quiet ? { start: parseClock(quiet.start)!, end: parseClock(quiet.end)!, mode: quiet.mode } : null,
    locale: localeFromRequest(request),
  });
  return Response.json({ ok: true });
});
