import { useCallback, useEffect, useState, type FormEvent } from "react";
import { send } from "#app/lib/send.ts";
import { useT } from "#app/lib/i18n.tsx";
import type { NotificationKind } from "#app/features/notifications/types.ts";
import { pushMessages, type PushMessageKey } from "#app/features/push/messages.ts";
import { DIGEST_HOUR_JST, QUIET_CHANNELS, type KindChoices, type QuietChannel } from "#app/features/push/preferences.ts";
import { currentPushEndpoint, usePushDevice } from "#app/features/push/use-push-device.ts";

type Settings = {
  kinds: NotificationKind[];
  channels: Record<NotificationKind, KindChoices>;
  quiet: { start: string; end: string; mode: "hold" | "silent"; exempt: QuietChannel[] } | null;
  previews: boolean;
  /** How long a notification waits unread before it is mailed (the server's configuration). */
  mailDelaySeconds: number;
  vapidPublicKey: string;
  devices: number;
  /** This browser's endpoint is registered to the viewer. */
  thisDevice: boolean;
};

const KIND_LABELS: Record<NotificationKind, PushMessageKey> = {
  message: "kindLabelMessage",
  response: "kindLabelResponse",
  match: "kindLabelMatch",
  step: "kindLabelStep",
  expiring: "kindLabelExpiring",
  want: "kindLabelWant",
  report: "kindLabelReport",
  friend: "kindLabelFriend",
};

const buttonClass = "rounded-md border border-brand-700 px-4 py-2 font-bold text-brand-700 hover:bg-brand-50 disabled:cursor-not-allowed disabled:opacity-60";
const primaryClass = "rounded-md bg-brand-700 px-5 py-2 font-bold text-white hover:bg-brand-800 disabled:cursor-not-allowed disabled:opacity-60";

/**
 * The profile's notification settings (docs/architecture.md "Notifications (inbox)"): this device's push (turned on only by a
 * tap; on an iPhone outside the home-screen app, the ホーム画面に追加 guide instead), a test
 * push, the table of kinds × channels and the quiet hours. Loads and saves through
 * /api/notifications/settings.
 */
export function NotificationSettings() {
  const t = useT(pushMessages);
  const [settings, setSettings] = useState<Settings | null>(null);
  const [loadFailed, setLoadFailed] = useState(false);
  const [saving, setSaving] = useState(false);
  const [status, setStatus] = useState<{ ok: boolean; text: string } | null>(null);

  useEffect(() => {
    let live = true;
    currentPushEndpoint()
      .then((endpoint) => fetch(`/api/notifications/settings${endpoint ? `?endpoint=${encodeURIComponent(endpoint)}` : ""}`, { headers: { Accept: "application/json" } }))
      .then((r) => (r.ok ? (r.json() as Promise<Settings>) : Promise.reject(new Error(String(r.status)))))
      .then((s) => live && setSettings(s))
      .catch(() => live && setLoadFailed(true));
    return () => {
      live = false;
    };
  }, []);

  const setChoice = <C extends keyof KindChoices>(kind: NotificationKind, channel: C, value: KindChoices[C]) =>
    setSettings((s) => (s ? { ...s, channels: { ...s.channels, [kind]: { ...s.channels[kind], [channel]: value } } } : s));

  async function save(event: FormEvent) {
    event.preventDefault();
    if (!settings) return;
    setSaving(true);
    setStatus(null);
    try {
      const sent = await send("/api/notifications/settings", { method: "PUT", json: { channels: settings.channels, quiet: settings.quiet, previews: settings.previews } });
      setStatus(sent.ok ? { ok: true, text: t("saved") } : { ok: false, text: sent.refusal?.message ?? t("saveFailed") });
    } catch {
      setStatus({ ok: false, text: t("saveFailed") });
    } finally {
      setSaving(false);
    }
  }

  return (
    <section id="notification-settings" aria-labelledby="notification-settings-heading" className="space-y-6">
      <h2 id="notification-settings-heading" className="text-xl font-bold">
        {t("settingsHeading")}
      </h2>
      {!settings ? (
        <p role="status" className="text-sm text-slate-600">
          {loadFailed ? t("settingsLoadFailed") : t("settingsLoading")}
        </p>
      ) : (
        <>
          <PushDevice vapidPublicKey={settings.vapidPublicKey} devices={settings.devices} registered={settings.thisDevice} />
          <form onSubmit={save} className="space-y-6" data-testid="notification-settings-form">
            <div>
              {/* On a phone each kind is a card with its three choices labelled (app.css .card-table). */}
              <table role="table" className="card-table w-full text-left text-sm">
                <caption className="sr-only">{t("tableCaption")}</caption>
                <thead role="rowgroup">
                  <tr role="row" className="border-b border-slate-300">
                    <th role="columnheader" scope="col" className="py-2 pr-2">
                      {t("columnKind")}
                    </th>
                    <th role="columnheader" scope="col" className="px-2 py-2">
                      {t("columnSite")}
                    </th>
                    <th role="columnheader" scope="col" className="px-2 py-2">
                      {t("columnPush")}
                    </th>
                    <th role="columnheader" scope="col" className="px-2 py-2">
                      {t("columnMail")}
                    </th>
                  </tr>
                </thead>
                <tbody role="rowgroup">
                  {settings.kinds.map((kind) => {
                    const c = settings.channels[kind];
                    const label = t(KIND_LABELS[kind]);
                    return (
                      <tr role="row" key={kind} className="border-b border-slate-200">
                        <th role="rowheader" scope="row" className="py-2 pr-2 font-normal">
                          {label}
                        </th>
                        <td role="cell" className="px-2 py-2" data-label={t("columnSite")}>
                          <select
                            aria-label={`${label}: ${t("columnSite")}`}
                            value={c.site}
                            onChange={(e) => setChoice(kind, "site", e.target.value as KindChoices["site"])}
                            className="rounded border border-slate-400 bg-white px-2 py-1"
                            data-testid={`choice-${kind}-site`}
                          >
                            <option value="on">{t("choiceOn")}</option>
                            <option value="off">{t("choiceOff")}</option>
                          </select>
                        </td>
                        <td role="cell" className="px-2 py-2" data-label={t("columnPush")}>
                          <select
                            aria-label={`${label}: ${t("columnPush")}`}
                            value={c.push}
                            onChange={(e) => setChoice(kind, "push", e.target.value as KindChoices["push"])}
                            className="rounded border border-slate-400 bg-white px-2 py-1"
                            data-testid={`choice-${kind}-push`}
                          >
                            <option value="instant">{t("choiceInstant")}</option>
                            <option value="off">{t("choiceOff")}</option>
                          </select>
                        </td>
                        <td role="cell" className="px-2 py-2" data-label={t("columnMail")}>
                          <select
                            aria-label={`${label}: ${t("columnMail")}`}
                            value={c.mail}
                            onChange={(e) => setChoice(kind, "mail", e.target.value as KindChoices["mail"])}
                            className="rounded border border-slate-400 bg-white px-2 py-1"
                            data-testid={`choice-${kind}-mail`}
                          >
                            <option value="instant">{t("choiceInstant")}</option>
                            <option value="digest">{t("choiceDigest")}</option>
                            <option value="off">{t("choiceOff")}</option>
                          </select>
                        </td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </div>
            <MailNote delaySeconds={settings.mailDelaySeconds} />
            <label className="flex items-start gap-2">
              <input type="checkbox" className="mt-1" checked={settings.previews} onChange={(e) => setSettings({ ...settings, previews: e.target.checked })} data-testid="previews-use" />
              {t("previewsUse")}
            </label>

            <fieldset className="space-y-3">
              <legend className="font-bold">{t("quietHeading")}</legend>
              <label className="flex items-center gap-2">
                <input
                  type="checkbox"
                  checked={settings.quiet !== null}
                  onChange={(e) => setSettings({ ...settings, quiet: e.target.checked ? { start: "23:00", end: "07:00", mode: "hold", exempt: [] } : null })}
                  data-testid="quiet-use"
                />
                {t("quietUse")}
              </label>
              {settings.quiet && (
                <div className="space-y-2 pl-6">
                  <div className="flex flex-wrap items-center gap-4">
                    <label className="flex items-center gap-2">
                      {t("quietStart")}
                      <input
                        type="time"
                        required
                        value={settings.quiet.start}
                        onChange={(e) => setSettings({ ...settings, quiet: { ...settings.quiet!, start: e.target.value } })}
                        className="rounded border border-slate-400 px-2 py-1"
                      />
                    </label>
                    <label className="flex items-center gap-2">
                      {t("quietEnd")}
                      <input
                        type="time"
                        required
                        value={settings.quiet.end}
                        onChange={(e) => setSettings({ ...settings, quiet: { ...settings.quiet!, end: e.target.value } })}
                        className="rounded border border-slate-400 px-2 py-1"
                      />
                    </label>
                  </div>
                  {(["hold", "silent"] as const).map((mode) => (
                    <label key={mode} className="flex items-center gap-2">
                      <input
                        type="radio"
                        name="quiet-mode"
                        value={mode}
                        checked={settings.quiet!.mode === mode}
                        onChange={() => setSettings({ ...settings, quiet: { ...settings.quiet!, mode } })}
                      />
                      {t(mode === "hold" ? "quietHold" : "quietSilent")}
                    </label>
                  ))}
                  <p className="text-sm text-slate-600">{t("quietNote")}</p>
                  <fieldset className="flex flex-wrap items-center gap-4">
                    <legend className="mb-1 text-sm font-bold">{t("quietExemptHeading")}</legend>
                    {QUIET_CHANNELS.map((channel) => (
                      <label key={channel} className="flex items-center gap-2">
                        <input
                          type="checkbox"
                          checked={settings.quiet!.exempt.includes(channel)}
                          onChange={(e) => {
                            const others = settings.quiet!.exempt.filter((c) => c !== channel);
                            setSettings({ ...settings, quiet: { ...settings.quiet!, exempt: e.target.checked ? [...others, channel] : others } });
                          }}
                          data-testid={`quiet-exempt-${channel}`}
                        />
                        {t(channel === "push" ? "quietExemptPush" : "quietExemptMail")}
                      </label>
                    ))}
                  </fieldset>
                </div>
              )}
            </fieldset>

            <div className="flex flex-wrap items-center gap-3">
              <button type="submit" disabled={saving} aria-busy={saving || undefined} className={primaryClass}>
                {saving ? t("saving") : t("save")}
              </button>
              {status && (
                <p role="status" className={status.ok ? "text-sm text-green-800" : "text-sm text-red-700"}>
                  {status.text}
                </p>
              )}
            </div>
          </form>
        </>
      )}
    </section>
  );
}

/** When a notification is mailed, as this server is configured (NOTIFICATION_MAIL_DELAY_SECONDS). */
export function MailNote({ delaySeconds }: { delaySeconds: number }) {
  const t = useT(pushMessages);
  const delay = delaySeconds % 60 === 0 ? t("delayMinutes", { count: delaySeconds / 60 }) : t("delaySeconds", { count: delaySeconds });
  return <p className="text-sm text-slate-600">{t("mailNote", { delay, hour: DIGEST_HOUR_JST })}</p>;
}

/** This device's push: the tap that turns it on, the iPhone guide, or the test and off buttons. */
function PushDevice({ vapidPublicKey, devices, registered }: { vapidPublicKey: string; devices: number; registered: boolean }) {
  const t = useT(pushMessages);
  const [count, setCount] = useState(devices);
  // The server's count after a subscribe (the same endpoint again is no new device).
  const onDevices = useCallback((n: number | null) => n !== null && setCount(n), []);
  const device = usePushDevice(vapidPublicKey, registered, onDevices);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);

  const enable = async () => {
    setMessage(null);
    const result = await device.enable();
    if (result.outcome === "failed") setMessage({ ok: false, text: result.refusal?.message ?? t("pushFailed") });
  };
  const disable = async () => {
    setMessage(null);
    if (await device.disable()) setCount((c) => Math.max(0, c - 1));
  };
  const test = async () => {
    setMessage(null);
    const sent = await send("/api/push/test").catch(() => null);
    setMessage(sent?.ok ? { ok: true, text: t("testSent") } : { ok: false, text: sent?.refusal?.message ?? t("pushFailed") });
  };

  return (
    <div className="space-y-3 rounded-lg border border-slate-200 p-4" data-testid="push-device" data-state={device.state}>
      <h3 className="font-bold">{t("pushHeading")}</h3>
      <p className="text-sm text-slate-700">{t("pushIntro")}</p>
      {device.state === "ios-install" && (
        <div className="space-y-2 rounded-md bg-brand-50 p-3 text-sm" data-testid="ios-install-guide">
          <p className="font-bold">{t("iosGuideHeading")}</p>
          <ol className="list-decimal space-y-1 pl-5">
            <li>{t("iosGuideStep1")}</li>
            <li>{t("iosGuideStep2")}</li>
            <li>{t("iosGuideStep3")}</li>
          </ol>
          <p className="text-slate-600">{t("iosGuideNote")}</p>
        </div>
      )}
      {device.state === "unsupported" && <p className="text-sm text-slate-700">{t("pushUnsupported")}</p>}
      {device.state === "denied" && <p className="text-sm text-red-700">{t("pushDenied")}</p>}
      {(device.state === "off" || device.state === "working") && (
        <button type="button" onClick={() => void enable()} disabled={device.state === "working"} className={primaryClass} data-testid="push-enable">
          {device.state === "working" ? t("pushEnabling") : t("pushEnable")}
        </button>
      )}
      {device.state === "on" && (
        <>
          <p className="text-sm font-medium text-green-800">{t("pushOn")}</p>
          <div className="flex flex-wrap gap-3">
            <button type="button" onClick={() => void test()} className={buttonClass} data-testid="push-test">
              {t("testSend")}
            </button>
            <button type="button" onClick={() => void disable()} className={buttonClass} data-testid="push-disable">
              {t("pushDisable")}
            </button>
          </div>
        </>
      )}
      {count > 0 && <p className="text-sm text-slate-600">{t("devices", { count })}</p>}
      {message && (
        <p role="status" className={message.ok ? "text-sm text-green-800" : "text-sm text-red-700"}>
          {message.text}
        </p>
      )}
    </div>
  );
}
