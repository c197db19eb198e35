/*
 * トレポケ service worker: Web Push only (no offline cache). Kept by hand, small on purpose.
 *
 * - push: always shows a notification (browsers revoke a subscription whose pushes show nothing).
 *   The payload is what the server's push channel sends (features/push/web-push.server.ts):
 *   {title, body, url, tag, silent?, badge?, lang?}. `url` must resolve to this site (else the
 *   click opens /notifications).
 * - notificationclick: focuses a tab of the site already showing that page, or any tab of the
 *   site (navigated there), or opens a new one.
 * - pushsubscriptionchange: the browser replaced the subscription; the new one is sent to the
 *   server (with the session cookie of this origin) and the old one removed.
 */
"use strict";

const FALLBACK = { title: "トレポケ", body: "新しいお知らせがあります", url: "/notifications", tag: "notifications", lang: "ja" };

/** A link of this site only: "/\\evil.example" or "//evil.example" resolve to another origin and are refused. */
function sameOriginUrl(value) {
  if (typeof value !== "string") return new URL(FALLBACK.url, self.location.origin);
  try {
    const target = new URL(value, self.location.origin);
    if (target.origin === self.location.origin) return target;
  } catch {
    // not a URL at all
  }
  return new URL(FALLBACK.url, self.location.origin);
}

self.addEventListener("install", () => {
  self.skipWaiting();
});

self.addEventListener("activate", (event) => {
  event.waitUntil(self.clients.claim());
});

function pathOf(url) {
  return url.pathname + url.search + url.hash;
}

function readPayload(event) {
  if (!event.data) return FALLBACK;
  try {
    const data = event.data.json();
    return {
      title: typeof data.title === "string" ? data.title : FALLBACK.title,
      body: typeof data.body === "string" ? data.body : FALLBACK.body,
      url: pathOf(sameOriginUrl(data.url)),
      tag: typeof data.tag === "string" ? data.tag : FALLBACK.tag,
      silent: data.silent === true,
      badge: typeof data.badge === "number" ? data.badge : undefined,
      lang: data.lang === "en" || data.lang === "ja" ? data.lang : FALLBACK.lang,
    };
  } catch {
    return { ...FALLBACK, body: event.data.text() || FALLBACK.body };
  }
}

self.addEventListener("push", (event) => {
  const message = readPayload(event);
  const shown = self.registration.showNotification(message.title, {
    body: message.body,
    tag: message.tag,
    // A later push for the same room replaces the notification and still alerts.
    renotify: !message.silent && message.tag !== FALLBACK.tag,
    silent: message.silent === true,
    icon: "/icons/icon-192.png",
    badge: "/icons/icon-192.png",
    lang: message.lang,
    data: { url: message.url },
  });
  const badge =
    typeof message.badge === "number" && "setAppBadge" in self.navigator
      ? (message.badge > 0 ? self.navigator.setAppBadge(message.badge) : self.navigator.clearAppBadge()).catch(() => {})
      : Promise.resolve();
  event.waitUntil(Promise.all([shown, badge]));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const target = sameOriginUrl(event.notification.data && event.notification.data.url);
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
      const same = windows.find((w) => {
        const url = new URL(w.url);
        return url.origin === target.origin && url.pathname === target.pathname;
      });
      // focus() needs the click's user activation; a tab that cannot take focus is still navigated.
      if (same) return same.focus().catch(() => undefined);
      const ours = windows.find((w) => new URL(w.url).origin === target.origin);
      // navigate() works only on a tab this worker controls; otherwise a new window opens.
      const navigated = ours && "navigate" in ours ? await ours.navigate(target.href).catch(() => null) : null;
      if (navigated) return navigated.focus().catch(() => undefined);
      return self.clients.openWindow(target.href);
    })(),
  );
});

self.addEventListener("pushsubscriptionchange", (event) => {
  event.waitUntil(
    (async () => {
      const options = event.oldSubscription ? event.oldSubscription.options : null;
      const next = event.newSubscription || (options ? await self.registration.pushManager.subscribe(options) : null);
      const json = { headers: { "Content-Type": "application/json" }, credentials: "same-origin" };
      if (next) await fetch("/api/push/subscription", { ...json, method: "POST", body: JSON.stringify(next.toJSON()) });
      if (event.oldSubscription && (!next || next.endpoint !== event.oldSubscription.endpoint)) {
        await fetch("/api/push/subscription", { ...json, method: "DELETE", body: JSON.stringify({ endpoint: event.oldSubscription.endpoint }) });
      }
    })(),
  );
});
