import type { BrowserContext, Page } from "playwright-core";
import { until } from "./wait";

type Registration = { registrationId: string; scopeURL: string; isDeleted: boolean };
type Version = { versionId: string; registrationId: string; runningStatus: string; status: string };
type Shown = { title: string; body: string; tag: string; data: unknown };

/**
 * Delivers `payload` as a push to the page's real service worker (DevTools protocol: headless
 * Chromium cannot subscribe at a real push service) and returns the notifications it shows.
 *
 * The push is delivered only once the registration has an activated version, and to a stopped
 * worker, as a push usually finds it. Once, in a busy test run, a delivered push showed nothing;
 * a push arriving while the worker stopped was the suspicion, unconfirmed (Playwright keeps
 * DevTools attached to workers, which normally keeps them from stopping when idle). A failure
 * names what DevTools reported about the worker, so a timeout says whether it ran, failed or
 * never started.
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
  await cdp.send("ServiceWorker.deliverPushMessage", { origin, registrationId, data: payload });
  // Polled with evaluate, which awaits the page's promise (waitForFunction takes a returned
  // promise itself as truthy and would stop before the notification is shown).
  let shown: Shown[] = [];
  await until(
    async () => {
      shown = await page.evaluate(async () => {
        const list = await (await navigator.serviceWorker.ready).getNotifications();
        return list.map((n) => ({ title: n.title, body: n.body, tag: n.tag, data: n.data as unknown }));
      });
      return shown.length > 0;
    },
    "the notification the service worker shows",
    timeoutMs,
  ).catch((error: Error) => {
    throw new Error(`${error.message}: ${state()}`);
  });
  await cdp.detach();
  return shown;
}
