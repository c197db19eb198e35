import { randomBytes } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "#tests/support/server.ts";
import { createSharedDatabase } from "#tests/support/shared-database.ts";
import { signUpVerified } from "#tests/support/verified-account.ts";

const databaseUrl = process.env.TEST_DATABASE_URL;
const redisUrl = process.env.TEST_REDIS_URL;
const servers: RunningServer[] = [];
let drop: (() => Promise<void>) | null = null;

afterAll(async () => {
  for (const s of servers) await s.stop();
  await drop?.();
});

const description = async (server: RunningServer) => {
  const html = await (await fetch(`${server.url}/`)).text();
  return /<meta name="description" content="([^"]*)"/.exec(html)?.[1];
};

describe.runIf(databaseUrl && redisUrl)("site settings on two instances sharing PostgreSQL and Redis", () => {
  it("a save on one instance shows in the other instance's cached signed-out pages at once", async () => {
    const database = await createSharedDatabase(databaseUrl!, "torepoke_settings");
    drop = database.drop;
    // Page cache of an hour: without the relay, instance two would keep its old page that long.
    const env = { DATABASE_URL: database.url, REDIS_URL: redisUrl!, BETTER_AUTH_SECRET: randomBytes(32).toString("base64url"), LOG_LEVEL: "warn", PAGE_CACHE_SECONDS: "3600", ADMIN_EMAILS: "settings-admin@example.com" };
    const one = await startServer(env);
    servers.push(one);
    const two = await startServer({ ...env, SEED_CATALOGUE: "never" });
    servers.push(two);

    const before = await description(two);
    const cached = await fetch(`${two.url}/`);
    expect(cached.headers.get("x-page-cache")).toBe("hit");
    await cached.arrayBuffer();

    // An administrator once the address is verified; either instance's outbox may write the mail.
    const cookie = await signUpVerified({ ...one, dataDirs: [one.dataDir, two.dataDir] }, { email: "settings-admin@example.com", password: "settings-password", name: "管理" });
    const wanted = `別のインスタンスで保存した説明 ${randomBytes(3).toString("hex")}`;
    const saved = await fetch(`${one.url}/api/admin/settings`, {
      method: "PUT",
      headers: { origin: one.url, cookie, "content-type": "application/json" },
      body: JSON.stringify({ metaDescription: wanted, seoKeywords: "", ogTitle: "", ogDescription: "", ogImage: "" }),
    });
    expect(saved.status).toBe(200);
    expect(before).not.toBe(wanted);
    // The relay is asynchronous (Redis): wait for the condition, well inside the page cache's hour.
    await expect.poll(() => description(two), { timeout: 10_000, interval: 100 }).toBe(wanted);
    expect(await description(one)).toBe(wanted);
  }, 180_000);
});
