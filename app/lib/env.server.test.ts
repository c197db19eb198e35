import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import express from "express";
import { describe, expect, it } from "vitest";
import { ConfigError } from "./config-error";
import { loadBackupEnv, loadEnv } from "./env.server";

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
    expect(loadEnv({ DATA_DIR: dir, ANALYTICS_BUFFER_MAX: "100000" }).analytics.bufferMax).toBe(100_000);
    expect(loadEnv({ DATA_DIR: dir, METRICS_PORT: "9464" }).metrics).toEqual({ port: 9464, host: "127.0.0.1" });
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
    ["METRICS_PORT", "0"],
    ["METRICS_PORT", "http"],
    ["ANALYTICS_RETENTION_DAYS", "0"],
    ["ANALYTICS_RATE_LIMIT", "-1"],
    ["ANALYTICS_BUFFER_MAX", "100001"],
    ["ANALYTICS_BUFFER_MAX", "10000000"],
    ["VAPID_PUBLIC_KEY", "not-a-key"],
    ["VAPID_PRIVATE_KEY", "c2hvcnQ"],
    ["VAPID_SUBJECT", "http://torepoke.example"],
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

  it("generates a VAPID key pair into DATA_DIR once, or takes both keys from the environment", () => {
    const dir = dataDir();
    const env = loadEnv({ DATA_DIR: dir });
    expect(Buffer.from(env.vapid.publicKey, "base64url")).toHaveLength(65);
    expect(Buffer.from(env.vapid.privateKey, "base64url")).toHaveLength(32);
    expect(env.vapid.subject).toBe("mailto:no-reply@localhost.localdomain");
    expect(JSON.parse(readFileSync(path.join(dir, "vapid.json"), "utf8"))).toEqual({ publicKey: env.vapid.publicKey, privateKey: env.vapid.privateKey });
    expect(loadEnv({ DATA_DIR: dir }).vapid).toEqual(env.vapid);
    const given = loadEnv({ DATA_DIR: dataDir(), VAPID_PUBLIC_KEY: env.vapid.publicKey, VAPID_PRIVATE_KEY: env.vapid.privateKey, SITE_URL: "https://torepoke.example" });
    expect(given.vapid).toEqual({ ...env.vapid, subject: "https://torepoke.example" });
    expect(() => loadEnv({ DATA_DIR: dataDir(), VAPID_PUBLIC_KEY: env.vapid.publicKey })).toThrowError(/VAPID_PRIVATE_KEY must be set together with VAPID_PUBLIC_KEY/);
  });

  it("LINE Login: unset means none; both the channel ID and secret, or a one-line error; the test stand-in is refused in production", () => {
    const id = "1650000001";
    const secret = "0123456789abcdef0123456789abcdef";
    expect(loadEnv({ DATA_DIR: dataDir() }).line).toBeUndefined();
    expect(loadEnv({ DATA_DIR: dataDir(), LINE_CLIENT_ID: id, LINE_CLIENT_SECRET: secret }).line).toEqual({
      clientId: id,
      clientSecret: secret,
      issuer: "https://access.line.me",
      authorizationUrl: "https://access.line.me/oauth2/v2.1/authorize",
      tokenUrl: "https://api.line.me/oauth2/v2.1/token",
    });
    expect(() => loadEnv({ DATA_DIR: dataDir(), LINE_CLIENT_ID: id })).toThrowError(/^Invalid configuration: LINE_CLIENT_SECRET must be set together with LINE_CLIENT_ID/);
    expect(() => loadEnv({ DATA_DIR: dataDir(), LINE_CLIENT_SECRET: secret })).toThrowError(/^Invalid configuration: LINE_CLIENT_ID must be set together with LINE_CLIENT_SECRET/);
    expect(() => loadEnv({ DATA_DIR: dataDir(), LINE_CLIENT_ID: "line-channel", LINE_CLIENT_SECRET: secret })).toThrowError(/^Invalid configuration: LINE_CLIENT_ID must be the LINE Login channel ID/);
    expect(() => loadEnv({ DATA_DIR: dataDir(), LINE_CLIENT_ID: id, LINE_CLIENT_SECRET: "short" })).toThrowError(/^Invalid configuration: LINE_CLIENT_SECRET must be the LINE Login channel secret/);
    // A secret that is almost right is almost the secret: the start-up line gives its length only.
    const nearMiss = `${secret.slice(0, -1)}G`;
    expect(() => loadEnv({ DATA_DIR: dataDir(), LINE_CLIENT_ID: id, LINE_CLIENT_SECRET: nearMiss })).toThrowError(/\(got 32 characters\)$/);
    expect(() => loadEnv({ DATA_DIR: dataDir(), BETTER_AUTH_SECRET: "short" })).toThrowError(/\(got 5 characters\)$/);
    const standIn = { DATA_DIR: dataDir(), LINE_CLIENT_ID: id, LINE_CLIENT_SECRET: secret, LINE_TEST_ORIGIN: "http://127.0.0.1:4010" };
    // NODE_ENV defaults to production: the stand-in needs an explicit test or development.
    expect(() => loadEnv(standIn)).toThrowError(/^Invalid configuration: LINE_TEST_ORIGIN is for tests only/);
    expect(() => loadEnv({ ...standIn, NODE_ENV: "production" })).toThrowError(ConfigError);
    expect(loadEnv({ ...standIn, NODE_ENV: "test" }).line).toMatchObject({ issuer: "http://127.0.0.1:4010", tokenUrl: "http://127.0.0.1:4010/oauth2/v2.1/token" });
  });

  it("every generated private key is 32 bytes (a leading zero byte is kept), and the file is read back", () => {
    // About 1 in 256 P-256 private keys starts with a zero byte; 2000 pairs meet one almost surely.
    const dir = dataDir();
    for (let i = 0; i < 2000; i++) {
      const file = path.join(dir, `${i}`);
      const env = loadEnv({ DATA_DIR: file });
      expect(Buffer.from(env.vapid.privateKey, "base64url")).toHaveLength(32);
      expect(Buffer.from(env.vapid.publicKey, "base64url")).toHaveLength(65);
    }
  });

  it("a vapid.json that is unreadable or breaks the VAPID_* rules stops start-up instead of being replaced", () => {
    const good = loadEnv({ DATA_DIR: dataDir() }).vapid;
    const cases: [string, RegExp][] = [
      ["{not json", /vapid\.json is not readable JSON/],
      [JSON.stringify({ publicKey: good.publicKey }), /privateKey in .*vapid\.json must be a P-256 private key in URL-safe base64 \(32 bytes\)/],
      [JSON.stringify({ publicKey: good.publicKey, privateKey: Buffer.alloc(31, 1).toString("base64url") }), /privateKey in .*32 bytes/],
      [JSON.stringify({ publicKey: Buffer.alloc(65, 4).toString("base64url").slice(2), privateKey: good.privateKey }), /publicKey in .*65 bytes/],
    ];
    for (const [content, message] of cases) {
      const dir = dataDir();
      writeFileSync(path.join(dir, "vapid.json"), content);
      expect(() => loadEnv({ DATA_DIR: dir })).toThrowError(ConfigError);
      expect(() => loadEnv({ DATA_DIR: dir })).toThrowError(message);
      expect(readFileSync(path.join(dir, "vapid.json"), "utf8")).toBe(content);
    }
  });

  it("TRUST_PROXY is loopback unless set, else a hop count or proxy addresses and ranges that Express accepts", () => {
    expect(loadEnv({ DATA_DIR: dataDir() }).trustProxy).toEqual(["loopback"]);
    expect(loadEnv({ DATA_DIR: dataDir(), TRUST_PROXY: " " }).trustProxy).toEqual(["loopback"]);
    expect(loadEnv({ DATA_DIR: dataDir(), TRUST_PROXY: "1" }).trustProxy).toBe(1);
    expect(loadEnv({ DATA_DIR: dataDir(), TRUST_PROXY: "0" }).trustProxy).toBe(0);
    const listed = loadEnv({ DATA_DIR: dataDir(), TRUST_PROXY: "10.0.0.5, 192.168.0.0/16,loopback, uniquelocal,fd00::/8,::1" }).trustProxy;
    expect(listed).toEqual(["10.0.0.5", "192.168.0.0/16", "loopback", "uniquelocal", "fd00::/8", "::1"]);
    // Whatever start-up accepts, Express's own setting takes without throwing.
    expect(() => express().set("trust proxy", listed)).not.toThrow();
  });

  it.each(["true", "false", "yes", "all", "-1", "100", "1.5", "127.1", "10.0.0.0/0", "10.0.0.0/33", "::/129", "10.0.0.0/255.0.0.0", "10.0.0.1/8/8", "proxy.example", "10.0.0.1,,nope", ","])(
    "refuses TRUST_PROXY=%s with the one-line message",
    (value) => {
      expect(() => loadEnv({ DATA_DIR: dataDir(), TRUST_PROXY: value })).toThrowError(ConfigError);
      expect(() => loadEnv({ DATA_DIR: dataDir(), TRUST_PROXY: value })).toThrowError(
        `Invalid configuration: TRUST_PROXY must be a hop count (0 to 99) or comma-separated proxy addresses or CIDR ranges, which may include loopback, linklocal, uniquelocal (got ${JSON.stringify(value)})`,
      );
    },
  );

  it("PUSH_SERVICE_ORIGINS takes comma-separated http(s) origins and refuses anything else", () => {
    expect(loadEnv({ DATA_DIR: dataDir() }).pushServiceOrigins).toEqual([]);
    expect(loadEnv({ DATA_DIR: dataDir(), PUSH_SERVICE_ORIGINS: " http://127.0.0.1:8090 , https://push.example.org/ " }).pushServiceOrigins).toEqual([
      "http://127.0.0.1:8090",
      "https://push.example.org",
    ]);
    for (const bad of ["push.example.org", "https://push.example.org/path", "ftp://push.example.org", "https://a.example,nope"]) {
      expect(() => loadEnv({ DATA_DIR: dataDir(), PUSH_SERVICE_ORIGINS: bad }), bad).toThrowError(/PUSH_SERVICE_ORIGINS must be comma-separated http\(s\) origins/);
    }
  });
});

describe("backup settings", () => {
  it("nightly at 4 o'clock Japan time into DATA_DIR/backups, the last 7 kept; BACKUP_HOUR=off turns the nightly one off", () => {
    const dir = dataDir();
    expect(loadEnv({ DATA_DIR: dir }).backups).toEqual({ dir: path.join(dir, "backups"), hourJst: 4, keep: 7 });
    expect(loadEnv({ DATA_DIR: dir, BACKUP_HOUR: "off", BACKUP_KEEP: "30", BACKUP_DIR: "/srv/backups" }).backups).toEqual({ dir: "/srv/backups", hourJst: null, keep: 30 });
    expect(loadEnv({ DATA_DIR: dir, BACKUP_HOUR: "0" }).backups.hourJst).toBe(0);
  });

  it.each([
    ["BACKUP_HOUR", "24", "must be an hour from 0 to 23 (Japan time) or off"],
    ["BACKUP_HOUR", "nightly", "must be an hour from 0 to 23 (Japan time) or off"],
    ["BACKUP_KEEP", "0", "must be a whole number from 1 to 1000"],
  ])("refuses %s=%s with the one-line message", (name, value, rule) => {
    expect(() => loadEnv({ DATA_DIR: dataDir(), [name]: value })).toThrowError(`Invalid configuration: ${name} ${rule} (got ${JSON.stringify(value)})`);
    expect(() => loadBackupEnv({ DATA_DIR: dataDir(), [name]: value })).toThrowError(ConfigError);
  });

  it("the backup commands' configuration writes nothing into DATA_DIR (a restore may be about to fill it)", () => {
    const dir = path.join(dataDir(), "data");
    expect(loadBackupEnv({ DATA_DIR: dir, S3_BUCKET: "site" })).toEqual({ dataDir: dir, databaseUrl: undefined, uploadsLocal: false, backups: { dir: path.join(dir, "backups"), hourJst: 4, keep: 7 } });
    expect(existsSync(dir)).toBe(false);
  });
});
