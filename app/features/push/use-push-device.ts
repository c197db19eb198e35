import { useCallback, useEffect, useState } from "react";

/**
 * This browser's push state:
 * - "checking" until mounted (the server cannot know);
 * - "ios-install": an iPhone/iPad outside the home-screen app, where Web Push does not exist;
 * - "unsupported", "denied" (the player blocked notifications), "off", "working", "on".
 */
export type PushDeviceState = "checking" | "ios-install" | "unsupported" | "denied" | "off" | "working" | "on";

export const SERVICE_WORKER_URL = "/sw.js";

function isIosBrowserTab(): boolean {
  const ua = navigator.userAgent;
  // iPadOS reports itself as a Mac with touch.
  const ios = /iPhone|iPad|iPod/.test(ua) || (/Macintosh/.test(ua) && navigator.maxTouchPoints > 1);
  const standalone = window.matchMedia("(display-mode: standalone)").matches || (navigator as { standalone?: boolean }).standalone === true;
  return ios && !standalone;
}

function pushSupported(): boolean {
  return "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
}

function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url.replace(/-/g, "+").replace(/_/g, "/").padEnd(Math.ceil(base64url.length / 4) * 4, "=");
  const raw = atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
  return bytes;
}

async function existingSubscription(): Promise<PushSubscription | null> {
  const registration = await navigator.serviceWorker.getRegistration("/");
  return (await registration?.pushManager.getSubscription()) ?? null;
}

/** Turning push on happens only in `enable`, called from a tap: never on page load. */
export function usePushDevice(vapidPublicKey: string) {
  const [state, setState] = useState<PushDeviceState>("checking");

  useEffect(() => {
    let live = true;
    void (async () => {
      let next: PushDeviceState;
      if (!pushSupported()) next = isIosBrowserTab() ? "ios-install" : "unsupported";
      else if (Notification.permission === "denied") next = "denied";
      else next = (await existingSubscription().catch(() => null)) && Notification.permission === "granted" ? "on" : "off";
      if (live) setState(next);
    })();
    return () => {
      live = false;
    };
  }, []);

  const enable = useCallback(async (): Promise<"ok" | "denied" | "failed"> => {
    setState("working");
    try {
      const permission = await Notification.requestPermission();
      if (permission !== "granted") {
        setState(permission === "denied" ? "denied" : "off");
        return "denied";
      }
      const registration = await navigator.serviceWorker.register(SERVICE_WORKER_URL, { scope: "/" });
      await navigator.serviceWorker.ready;
      const subscription =
        (await registration.pushManager.getSubscription()) ??
        (await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(vapidPublicKey) }));
      const response = await fetch("/api/push/subscription", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(subscription.toJSON()),
      });
      if (!response.ok) throw new Error(`subscription refused: ${response.status}`);
      setState("on");
      return "ok";
    } catch {
      setState("off");
      return "failed";
    }
  }, [vapidPublicKey]);

  const disable = useCallback(async (): Promise<boolean> => {
    const subscription = await existingSubscription().catch(() => null);
    if (!subscription) {
      setState("off");
      return false;
    }
    await fetch("/api/push/subscription", {
      method: "DELETE",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ endpoint: subscription.endpoint }),
    }).catch(() => null);
    await subscription.unsubscribe().catch(() => false);
    setState("off");
    return true;
  }, []);

  return { state, enable, disable };
}
