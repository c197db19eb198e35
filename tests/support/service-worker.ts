import type { BrowserContext, Page } from "playwright-core";
import { until, WaitTimeout } from "./wait";

type Registration = { registrationId: string; scopeURL: string; isDeleted: boolean };
type Version = { versionId: string; registrationId: string; runningStatus: string; status: string };
type Shown = { title: string; body: string; tag: string; data: unknown };

/** How long one delivery may take to show its notification before the push is delivered again. */
const DELIVERY_WAIT_MS = 10_000;
const DELIVERY_TRIES = 3;

/**
 * Delivers `payload` as a push to the page's real service worker (DevTools protocol: headless
 * Chromium cannot subscribe at a real push service) and returns the notifications it shows.
 *
 * The push is delivered only once the registration has an activated version, and to a stopped
 * worker, as a push usually finds it. Twice, in busy full test runs, a delivered push showed
 * nothing for 30 s while DevTools reported the worker activated, running and without errors (a
 * push to a worker that had just stopped was the first suspicion; stopping it first did not make
 * the loss go away, and it never happened in runs of this test alone). DevTools' delivery is the
 * test's stand-in for a push service, which retries an undelivered push; so does this: when
 * nothing shows within DELIVERY_WAIT_MS the same payload is delivered again, up to
 * DELIVERY_TRIES times. The worker handles every delivery the same way (a notification with the
 * payload's tag, which replaces one shown earlier), so a worker that shows nothing still fails,
 * and the caller still sees exactly what it showed. A failure names what DevTools reported about
 * the worker and how many deliveries were made.
 */
export async function deliverPushToServiceWorker(context: BrowserContext, page: Page, payload: string, timeoutMs = 30_000): Promise<Shown[]> {
  const cdp = await context.newCDPSession(page);
  const registrations = new Map<string, Registration>();
  const versions = new Map<string, Version>();
  const errors: string[] = [];
  cdp.on("ServiceWorker.workerRegistrationUpdated", (e: { registrations: Registration[] }) => {
    for (const r of e.registrations) registrations.set(r.registrationId, r);
  });
  cdp.on("ServiceWorker.workerVersionUpdated", (e: { versions: Version[] }) => {
    for (const v of e.versions) versions.set(v.versionId, v);
  });
  cdp.on("ServiceWorker.workerErrorReported", (e: { errorMessage: { errorMessage: string } }) => {
    errors.push(e.errorMessage.errorMessage);
  });
  const state = () => JSON.stringify({ registrations: [...registrations.values()], versions: [...versions.values()], errors });
  await cdp.send("ServiceWorker.enable");
  const origin = new URL(page.url()).origin;
  let registrationId = "";
  await until(
    () => {
      const ready = [...versions.values()].find((v) => v.status === "activated" && registrations.get(v.registrationId)?.isDeleted === false);
      registrationId = ready?.registrationId ?? "";
      return Boolean(ready);
    },
    "an activated service worker",
    timeoutMs,
  ).catch((error: Error) => {
    throw new Error(`${error.message}: ${state()}`);
  });
  await cdp.send("ServiceWorker.stopAllWorkers");
  await until(
    () => [...versions.values()].filter((v) => v.registrationId === registrationId).every((v) => v.runningStatus === "stopped"),
    "the service worker to stop",
    timeoutMs,
  ).catch((error: Error) => {
    throw new Error(`${error.message}: ${state()}`);
  });
  // Polled with evaluate, which awaits the page's promise (waitForFunction takes a returned
  // promise itself as truthy and would stop before the notification is shown).
  let shown: Shown[] = [];
  const showsOne = async () => {
    shown = await page.evaluate(async () => {
      const list = await (await navigator.serviceWorker.ready).getNotifications();
      return list.map((n) => ({ title: n.title, body: n.body, tag: n.tag, data: n.data as unknown }));
    });
    return shown.length > 0;
  };
  let deliveries = 0;
  while (deliveries < DELIVERY_TRIES) {
    await cdp.send("ServiceWorker.deliverPushMessage", { origin, registrationId, data: payload });
    deliveries += 1;
    const wait = deliveries < DELIVERY_TRIES ? Math.min(DELIVERY_WAIT_MS, timeoutMs) : timeoutMs;
    // Only the wait's own timeout leads to another delivery; any other error (a closed page) is the failure.
    const showed = await until(showsOne, "the notification the service worker shows", wait).then(
      () => true,
      (error: unknown) => {
        if (error instanceof WaitTimeout) return false;
        throw error;
      },
    );
    if (showed) break;
  }
  if (shown.length === 0) throw new Error(`timed out waiting for the notification the service worker shows (${deliveries} deliveries): ${state()}`);
  await cdp.detach();
  return shown;
}
