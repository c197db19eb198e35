import { useCallback, useEffect, useState } from "react";
import type { PageRefusal } from "#app/lib/errors.ts";
import { send } from "#app/lib/send.ts";

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
  if (!pushSupported()) return null;
  const registration = await navigator.serviceWorker.getRegistration("/");
  return (await registration?.pushManager.getSubscription()) ?? null;
}

/** This browser's push endpoint, if it has a subscription (the settings ask whether it is the viewer's). */
export async function currentPushEndpoint(): Promise<string | null> {
  return (await existingSubscription().catch(() => null))?.endpoint ?? null;
}

const deleteEndpoint = (endpoint: string) =>
  send("/api/push/subscription", { method: "DELETE", json: { endpoint }, keepalive: true, signal: AbortSignal.timeout(3000) }).catch(() => null);

/**
 * Before logging out: this browser's endpoint stops being the player's, so a shared device does
 * not keep receiving their notifications. The browser's subscription itself stays (the next player
 * can take it over with a tap).
 */
export async function forgetPushDevice(): Promise<void> {
  const endpoint = await currentPushEndpoint();
  if (endpoint) await deleteEndpoint(endpoint);
}

function sameKey(a: ArrayBuffer | null | undefined, b: Uint8Array): boolean {
  // A browser that does not say which key it used is taken at its word.
  if (!a) return true;
  const bytes = new Uint8Array(a);
  return bytes.length === b.length && bytes.every((v, i) => v === b[i]);
}

/**
 * A subscription for the site's current key: an existing one made for another key (the key pair
 * was replaced) is dropped here and at the server, and a new one made.
 */
async function subscriptionForKey(registration: ServiceWorkerRegistration, vapidPublicKey: string): Promise<PushSubscription> {
  const key = keyBytes(vapidPublicKey);
  const existing = await registration.pushManager.getSubscription();
  if (existing && sameKey(existing.options.applicationServerKey, key)) return existing;
  if (existing) {
    await deleteEndpoint(existing.endpoint);
    await existing.unsubscribe().catch(() => false);
  }
  return registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
}

/** The server refused this browser's subscription (e.g. another account's session holds it): its message is shown. */
class SubscriptionRefusedError extends Error {
  override name = "SubscriptionRefusedError";
  constructor(
    status: number,
    readonly refusal: PageRefusal | undefined,
  ) {
    super(`subscription refused: ${status}`);
  }
}

async function register(subscription: PushSubscription): Promise<number | null> {
  // Loaded with the tap that turns push on: the profile page's first load does not carry zod.
  const { DevicesAnswer } = await import("./devices-answer");
  const sent = await send("/api/push/subscription", { json: subscription.toJSON() }, DevicesAnswer);
  if (!sent.ok) throw new SubscriptionRefusedError(sent.status, sent.refusal);
  return sent.data.devices;
}

/** What a tap on "turn on" came to; a refusal the server explained carries its message. */
export type PushEnableResult = { outcome: "ok" | "denied" | "failed"; refusal?: PageRefusal };

/**
 * Turning push on happens only in `enable`, called from a tap: never on page load. `registered`:
 * whether the server has this browser's endpoint for the viewer (another player on a shared
 * device, or a logged-out one, shows "off"). `onDevices` hears the player's device count after
 * a change.
 */
export function usePushDevice(vapidPublicKey: string, registered: boolean, onDevices?: (count: number | null) => void) {
  const [state, setState] = useState<PushDeviceState>("checking");

  useEffect(() => {
    let live = true;
    void (async () => {
      let next: PushDeviceState;
      if (!pushSupported()) next = isIosBrowserTab() ? "ios-install" : "unsupported";
      else if (Notification.permission === "denied") next = "denied";
      else {
        const existing = await existingSubscription().catch(() => null);
        next = existing && registered && Notification.permission === "granted" ? "on" : "off";
        // The site's key changed since this browser subscribed: pushes signed with the new key
        // would be refused, so subscribe again (permission is already granted).
        if (next === "on" && existing && !sameKey(existing.options.applicationServerKey, keyBytes(vapidPublicKey))) {
          try {
            const registration = await navigator.serviceWorker.ready;
            onDevices?.(await register(await subscriptionForKey(registration, vapidPublicKey)));
          } catch {
            next = "off";
          }
        }
      }
      if (live) setState(next);
    })();
    return () => {
      live = false;
    };
    // Checked once per mount; the key and registration come with the settings.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const enable = useCallback(async (): Promise<PushEnableResult> => {
    setState("working");
    try {
      const permission = await Notification.requestPermission();
      if (permission !== "granted") {
        setState(permission === "denied" ? "denied" : "off");
        return { outcome: "denied" };
      }
      const registration = await navigator.serviceWorker.register(SERVICE_WORKER_URL, { scope: "/" });
      await navigator.serviceWorker.ready;
      onDevices?.(await register(await subscriptionForKey(registration, vapidPublicKey)));
      setState("on");
      return { outcome: "ok" };
    } catch (error) {
      setState("off");
      return { outcome: "failed", ...(error instanceof SubscriptionRefusedError && error.refusal ? { refusal: error.refusal } : {}) };
    }
  }, [vapidPublicKey, onDevices]);

  const disable = useCallback(async (): Promise<boolean> => {
    const subscription = await existingSubscription().catch(() => null);
    if (!subscription) {
      setState("off");
      return false;
    }
    await deleteEndpoint(subscription.endpoint);
    await subscription.unsubscribe().catch(() => false);
    setState("off");
    return true;
  }, []);

  return { state, enable, disable };
}
