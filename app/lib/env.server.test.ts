import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, loadEnv } from "./env.server";

const dataDir = () => mkdtempSync(path.join(tmpdir(), "torepoke-env-"));

describe("loadEnv", () => {
  it("has defaults that need no set-up, and keeps a generated auth secret", () => {
    const dir = dataDir();
    const env = loadEnv({ DATA_DIR: dir });
    expect(env.port).toBe(3000);
    expect(env.databaseUrl).toBeUndefined();
    expect(env.siteUrl).toBe("http://localhost:3000");
    expect(env.authSecret.length).toBeGreaterThanOrEqual(32);
    expect(readFileSync(path.join(dir, "auth-secret"), "utf8").trim()).toBe(env.authSecret);
    expect(loadEnv({ DATA_DIR: dir }).authSecret).toBe(env.authSecret);
    // Metrics are off unless asked for, and then on loopback unless told otherwise.
    expect(env.metrics).toBeUndefined();
    expect(env.analytics.retentionDays).toBe(90);
    expect(loadEnv({ DATA_DIR: dir, METRICS_PORT: "9464" }).metrics).toEqual({ port: 9464, host: "127.0.0.1" });
  });

  it.each([
    ["PORT", "abc"],
    ["PORT", "70000"],
    ["DATABASE_URL", "nonsense"],
    ["REDIS_URL", "http://x"],
    ["SITE_URL", "localhost"],
    ["BETTER_AUTH_SECRET", "short"],
    ["METRICS_PORT", "0"],
    ["METRICS_PORT", "http"],
    ["ANALYTICS_RETENTION_DAYS", "0"],
    ["ANALYTICS_RATE_LIMIT", "-1"],
  ])("rejects %s=%s with a message naming it", (name, value) => {
    expect(() => loadEnv({ DATA_DIR: dataDir(), [name]: value })).toThrowError(ConfigError);
    expect(() => loadEnv({ DATA_DIR: dataDir(), [name]: value })).toThrowError(new RegExp(`^Invalid configuration: ${name} `));
  });

  it("reads admin lists", () => {
    const env = loadEnv({ DATA_DIR: dataDir(), ADMIN_EMAILS: " A@Example.com, b@example.com ", ADMIN_USER_IDS: "u1,,u2" });
    expect(env.adminEmails).toEqual(["a@example.com", "b@example.com"]);
    expect(env.adminUserIds).toEqual(["u1", "u2"]);
  });
});
