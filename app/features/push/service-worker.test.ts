import { readFileSync } from "node:fs";
import path from "node:path";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";

type Listener = (event: Record<string, unknown>) => void;

/** Runs public/sw.js in a bare worker-like scope and answers what it shows and opens. */
function loadServiceWorker() {
  const listeners: Record<string, Listener> = {};
  const shown: { title: string; options: Record<string, unknown> }[] = [];
  const opened: string[] = [];
  const self = {
    location: { origin: "https://torepoke.example" },
    navigator: {},
    addEventListener: (type: string, listener: Listener) => (listeners[type] = listener),
    skipWaiting: () => undefined,
    registration: {
      showNotification: async (title: string, options: Record<string, unknown>) => void shown.push({ title, options }),
    },
    clients: {
      claim: async () => undefined,
      matchAll: async () => [],
      openWindow: async (href: string) => void opened.push(href),
    },
  };
  runInNewContext(readFileSync(path.resolve("public/sw.js"), "utf8"), { self, URL, console });
  const waitFor = async (fire: (waitUntil: (p: Promise<unknown>) => void) => void) => {
    let pending: Promise<unknown> = Promise.resolve();
    fire((p) => (pending = p));
    await pending;
  };
  return {
    async push(payload: unknown) {
      await waitFor((waitUntil) => listeners.push({ data: { json: () => payload, text: () => JSON.stringify(payload) }, waitUntil }));
      return shown.at(-1)!;
    },
    async click(data: unknown) {
      await waitFor((waitUntil) => listeners.notificationclick({ notification: { data, close: () => undefined }, waitUntil }));
      return opened.at(-1);
    },
  };
}

describe("the service worker", () => {
  it("opens only links of this site: another origin, //host and /\\host lead to /notifications", async () => {
    const sw = loadServiceWorker();
    const base = { title: "t", body: "b", tag: "x" };
    for (const url of ["/\\evil.example", "//evil.example/x", "https://evil.example/", "/\\/evil.example", "javascript:alert(1)"]) {
      const { options } = await sw.push({ ...base, url });
      expect(options.data, url).toEqual({ url: "/notifications" });
      expect(await sw.click(options.data), url).toBe("https://torepoke.example/notifications");
    }
    const { options } = await sw.push({ ...base, url: "/chat/abc?x=1#m" });
    expect(await sw.click(options.data)).toBe("https://torepoke.example/chat/abc?x=1#m");
    // Data stored by an older worker: checked again on click.
    expect(await sw.click({ url: "/\\evil.example" })).toBe("https://torepoke.example/notifications");
  });

  it("the notification's language is the player's locale from the payload (Japanese when absent)", async () => {
    const sw = loadServiceWorker();
    expect((await sw.push({ title: "Torepoke", body: "b", url: "/", tag: "t", lang: "en" })).options.lang).toBe("en");
    expect((await sw.push({ title: "トレポケ", body: "b", url: "/", tag: "t" })).options.lang).toBe("ja");
  });
});
