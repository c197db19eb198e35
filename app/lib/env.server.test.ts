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
  });

  it.each([
    ["PORT", "abc"],
    ["PORT", "70000"],
    ["DATABASE_URL", "nonsense"],
    ["REDIS_URL", "http://x"],
    ["SITE_URL", "localhost"],
    ["BETTER_AUTH_SECRET", "short"],
    ["SMTP_URL", "http://mail.example.com"],
    ["MAIL_FROM", "not an address"],
    ["REQUIRE_EMAIL_VERIFICATION", "yes"],
  ])("rejects %s=%s with a message naming it", (name, value) => {
    expect(() => loadEnv({ DATA_DIR: dataDir(), [name]: value })).toThrowError(ConfigError);
    expect(() => loadEnv({ DATA_DIR: dataDir(), [name]: value })).toThrowError(new RegExp(`^Invalid configuration: ${name} `));
  });

  it("reads admin lists", () => {
    const env = loadEnv({ DATA_DIR: dataDir(), ADMIN_EMAILS: " A@Example.com, b@example.com ", ADMIN_USER_IDS: "u1,,u2" });
    expect(env.adminEmails).toEqual(["a@example.com", "b@example.com"]);
    expect(env.adminUserIds).toEqual(["u1", "u2"]);
  });

  it("sends mail over SMTP_URL from MAIL_FROM, or to files with a sender named after SITE_URL", () => {
    const smtp = loadEnv({ DATA_DIR: dataDir(), SMTP_URL: "smtps://user:pass@mail.example.com:465", MAIL_FROM: "トレポケ <no-reply@torepoke.example>" });
    expect(smtp.smtpUrl).toBe("smtps://user:pass@mail.example.com:465");
    expect(smtp.mailFrom).toBe("トレポケ <no-reply@torepoke.example>");
    expect(smtp.requireEmailVerification).toBe(false);
    const files = loadEnv({ DATA_DIR: dataDir(), SITE_URL: "https://torepoke.example", REQUIRE_EMAIL_VERIFICATION: "true" });
    expect(files.smtpUrl).toBeUndefined();
    expect(files.mailFrom).toBe("トレポケ <no-reply@torepoke.example>");
    expect(files.requireEmailVerification).toBe(true);
  });
});
