import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadEnv } from "../../app/lib/env.server";
import { startHttpApp } from "../support/http-app";
import { createTestDatabase, type TestDatabase } from "../support/test-db";

// The render limit (server/render-limit.ts) through the real Express app: one render at a time,
// one waiting, and a request past that refused with 503 "busy" in the refusal shape of its kind.
const SITE = "http://torepoke.test";
let database: TestDatabase;
let server: Awaited<ReturnType<typeof startHttpApp>>;
const entered: string[] = [];
const gates = new Map<string, () => void>();
const arrived = new Map<string, () => void>();

/** Resolves once the loader of `name` has started; the loader then waits until `release(name)`. */
function loaderStarted(name: string): Promise<void> {
  return new Promise((resolve) => arrived.set(name, resolve));
}
function release(name: string) {
  gates.get(name)!();
}

const slowPage = {
  loader: async ({ request }: { request: Request }) => {
    const name = new URL(request.url).searchParams.get("n") ?? "";
    entered.push(name);
    await new Promise<void>((resolve) => {
      gates.set(name, resolve);
      arrived.get(name)?.();
    });
    return Response.json({ name });
  },
  action: async () => Response.json({ posted: true }),
};

async function gauge(name: string): Promise<number> {
  const metric = server.app.metrics.registry.getSingleMetric(name)!;
  return (await metric.get()).values[0]?.value ?? 0;
}

async function until(check: () => Promise<boolean>) {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 5));
}

beforeAll(async () => {
  database = await createTestDatabase();
  const env = loadEnv({
    DATA_DIR: mkdtempSync(path.join(tmpdir(), "torepoke-render-limit-")),
    BETTER_AUTH_SECRET: randomBytes(32).toString("base64url"),
    SITE_URL: SITE,
    LOG_LEVEL: "silent",
    RENDER_CONCURRENCY: "1",
    RENDER_QUEUE: "1",
  });
  server = await startHttpApp({ env, database, routes: { slow: slowPage } });
}, 120_000);
afterAll(async () => {
  for (const open of gates.values()) open();
  await server?.close();
  await database?.close();
});

describe("render limit through Express", () => {
  it("runs one render, lets one wait its turn and refuses the next with 503 busy as JSON or as a page", async () => {
    const first = loaderStarted("a");
    const a = fetch(`${server.base}/slow?n=a`);
    await first;
    const b = fetch(`${server.base}/slow?n=b`);
    await until(async () => (await gauge("page_renders_waiting")) === 1);
    expect(await gauge("page_renders_running")).toBe(1);

    const json = await fetch(`${server.base}/slow?n=c`, { headers: { accept: "application/json" } });
    expect(json.status).toBe(503);
    expect(json.headers.get("retry-after")).toBe("1");
    expect(await json.json()).toEqual({ error: "ただいまアクセスが集中しています。少し時間をおいてもう一度お試しください。", code: "busy" });

    const page = await fetch(`${server.base}/slow?n=d`, { headers: { accept: "text/html", cookie: "lang=en" } });
    expect(page.status).toBe(503);
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    expect(await page.text()).toContain("The site is busy right now. Please try again in a moment.");
    expect(await gauge("page_renders_refused_total")).toBe(2);

    // Neither a health check nor a form post waits behind the renders.
    expect((await fetch(`${server.base}/healthz`)).status).toBe(200);
    const post = await fetch(`${server.base}/slow?n=p`, { method: "POST", headers: { origin: SITE, "content-type": "application/x-www-form-urlencoded" }, body: "x=1" });
    expect(post.status).toBe(200);

    // The waiting render starts only when the running one is done, and both are answered.
    expect(entered).toEqual(["a"]);
    const second = loaderStarted("b");
    release("a");
    expect(await (await a).json()).toEqual({ name: "a" });
    await second;
    expect(entered).toEqual(["a", "b"]);
    release("b");
    expect(await (await b).json()).toEqual({ name: "b" });
    await until(async () => (await gauge("page_renders_running")) === 0);
    expect(await gauge("page_renders_waiting")).toBe(0);
  });
});
