import { isIP } from "node:net";
import path from "node:path";
import { ConfigError } from "./config-error";
import { isVapidPrivateKey, isVapidPublicKey, readOrCreateSecret, VAPID_PRIVATE_KEY_RULE, VAPID_PUBLIC_KEY_RULE, vapidKeys, type VapidKeys } from "./data-dir-secrets.server";
import { INSTALL_DIR } from "./install-dir.server";
import { z } from "./zod";

const optionalUrl = (protocols: string[]) =>
  z
    .string()
    .trim()
    .optional()
    .transform((v) => (v ? v : undefined))
    .refine(
      (v) => {
        if (v === undefined) return true;
        try {
          return protocols.includes(new URL(v).protocol);
        } catch {
          return false;
        }
      },
      { message: `must be a URL starting with ${protocols.map((p) => `${p}//`).join(" or ")}` },
    );

function wholeNumber(fallback: string, min: number, max: number) {
  return z
    .string()
    .trim()
    .default(fallback)
    .refine((v) => /^\d+$/.test(v) && Number(v) >= min && Number(v) <= max, { message: `must be a whole number from ${min} to ${max}` })
    .transform(Number);
}

const list = (v: string) =>
  v
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);

const TRUST_PROXY_NAMES = ["loopback", "linklocal", "uniquelocal"];
const TRUST_PROXY_RULE = `must be a hop count (0 to 99) or comma-separated proxy addresses or CIDR ranges, which may include ${TRUST_PROXY_NAMES.join(", ")}`;

/**
 * TRUST_PROXY in the forms Express's "trust proxy" setting takes: a hop count, or a list of
 * addresses, CIDR ranges and Express's range names. Stricter than Express (no netmask notation,
 * no shorthand like 127.1) so that nothing accepted here makes Express throw at start-up.
 */
function parseTrustProxy(v: string | undefined): number | string[] | null {
  if (v === undefined) return ["loopback"];
  if (/^\d+$/.test(v)) return Number(v) <= 99 ? Number(v) : null;
  const entries = list(v);
  if (entries.length === 0) return null;
  const valid = entries.every((entry) => {
    if (TRUST_PROXY_NAMES.includes(entry)) return true;
    const [address, prefix, ...rest] = entry.split("/");
    const family = isIP(address);
    if (!family || rest.length > 0) return false;
    if (prefix === undefined) return true;
    return /^\d+$/.test(prefix) && Number(prefix) >= 1 && Number(prefix) <= (family === 4 ? 32 : 128);
  });
  return valid ? entries : null;
}

function isOrigin(v: string): boolean {
  try {
    const url = new URL(v);
    return (url.protocol === "https:" || url.protocol === "http:") && url.origin === v.replace(/\/$/, "");
  } catch {
    return false;
  }
}

const EnvSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("production"),
  PORT: z
    .string()
    .trim()
    .default("3000")
    .refine((v) => /^\d+$/.test(v) && Number(v) >= 0 && Number(v) <= 65535, {
      message: "must be a port number between 0 and 65535",
    })
    .transform(Number),
  HOST: z.string().trim().default("0.0.0.0"),
  // Whose X-Forwarded-For names the client (server/http.ts): every per-IP limit and log reads it.
  TRUST_PROXY: z
    .string()
    .trim()
    .optional()
    .transform((v) => v || undefined)
    .refine((v) => parseTrustProxy(v) !== null, { message: TRUST_PROXY_RULE })
    .transform((v) => parseTrustProxy(v)!),
  // Unset: data/ in the install folder (lib/install-dir.server.ts), wherever the process was started from.
  DATA_DIR: z.string().trim().min(1).optional(),
  DATABASE_URL: optionalUrl(["postgres:", "postgresql:"]),
  REDIS_URL: optionalUrl(["redis:", "rediss:"]),
  SITE_URL: optionalUrl(["http:", "https:"]),
  BETTER_AUTH_SECRET: z
    .string()
    .optional()
    .refine((v) => v === undefined || v.length >= 32, { message: "must be at least 32 characters" }),
  ADMIN_EMAILS: z.string().default(""),
  ADMIN_USER_IDS: z.string().default(""),
  VIDEO_CHANNEL_URL: optionalUrl(["https:", "http:"]),
  // Where the public card image set is served by the catalogue's file names: any host, or a
  // path of this site (`/card-images`).
  CARD_IMAGE_BASE_URL: z
    .string()
    .trim()
    .optional()
    .transform((v) => (v ? v : undefined))
    .refine((v) => v === undefined || /^\/(?!\/)/.test(v) || /^https?:\/\/[^/]/.test(v), {
      message: "must be an http(s) URL or a path starting with /",
    }),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
  SEED_CATALOGUE: z.enum(["auto", "never"]).default("auto"),
  AUTH_RATE_LIMIT_MAX: z
    .string()
    .trim()
    .default("10")
    .refine((v) => /^\d+$/.test(v) && Number(v) >= 1, { message: "must be a positive whole number" })
    .transform(Number),
  PAGE_CACHE_SECONDS: z
    .string()
    .trim()
    .default("5")
    .refine((v) => /^\d+$/.test(v) && Number(v) <= 3600, { message: "must be a whole number of seconds from 0 to 3600" })
    .transform(Number),
  // An S3-compatible bucket for uploads (docs/architecture.md "One bundle, one module graph"); without S3_BUCKET they go to DATA_DIR/uploads.
  S3_BUCKET: z.string().trim().optional().transform((v) => v || undefined),
  S3_ENDPOINT: optionalUrl(["https:", "http:"]),
  S3_REGION: z.string().trim().default("us-east-1"),
  S3_ACCESS_KEY_ID: z.string().trim().optional().transform((v) => v || undefined),
  S3_SECRET_ACCESS_KEY: z.string().optional().transform((v) => v || undefined),
  S3_PUBLIC_URL: optionalUrl(["https:", "http:"]),
  // Mail (features/mail): SMTP when set, else .eml files in DATA_DIR/mail.
  SMTP_URL: optionalUrl(["smtp:", "smtps:"]),
  MAIL_FROM: z
    .string()
    .trim()
    .optional()
    .transform((v) => v || undefined)
    .refine((v) => v === undefined || /^(?:[^<>\r\n]*<[^<>\s@]+@[^<>\s@]+\.[^<>\s@]+>|[^<>\s@]+@[^<>\s@]+\.[^<>\s@]+)$/.test(v), {
      message: "must be an e-mail address, optionally as Name <address>",
    }),
  REQUIRE_EMAIL_VERIFICATION: z.enum(["true", "false"]).default("false"),
  // First-party analytics (docs/decisions/020-first-party-analytics.md).
  ANALYTICS_RETENTION_DAYS: wholeNumber("90", 1, 3650),
  ANALYTICS_RATE_LIMIT: wholeNumber("120", 1, 1_000_000),
  // A buffered row costs ~0.35 KB of heap (up to ~2.8 KB with the longest path, referrer and UTM
  // values); the buffer also stops at MAX_BUFFER_BYTES (48 MB, features/analytics/buffer.server.ts),
  // so a full one stays well inside the 512 MB heap `npm start` gives the server.
  ANALYTICS_BUFFER_MAX: wholeNumber("50000", 100, 100_000),
  METRICS_PORT: z
    .string()
    .trim()
    .optional()
    .transform((v) => (v ? v : undefined))
    .refine((v) => v === undefined || (/^\d+$/.test(v) && Number(v) >= 1 && Number(v) <= 65535), { message: "must be a port number between 1 and 65535" })
    .transform((v) => (v === undefined ? undefined : Number(v))),
  METRICS_HOST: z.string().trim().default("127.0.0.1"),
  // How long a stopping instance may take to finish its requests and sends (server/app.ts shutdown).
  SHUTDOWN_GRACE_SECONDS: wholeNumber("10", 1, 3600),
  // How long a notification stays unread (and its player away) before it is mailed (features/push).
  NOTIFICATION_MAIL_DELAY_SECONDS: wholeNumber("600", 0, 7 * 86400),
  // Web Push (features/push): the VAPID key pair, generated into DATA_DIR/vapid.json when unset.
  VAPID_PUBLIC_KEY: z
    .string()
    .trim()
    .optional()
    .transform((v) => v || undefined)
    .refine((v) => v === undefined || isVapidPublicKey(v), { message: VAPID_PUBLIC_KEY_RULE }),
  VAPID_PRIVATE_KEY: z
    .string()
    .trim()
    .optional()
    .transform((v) => v || undefined)
    .refine((v) => v === undefined || isVapidPrivateKey(v), { message: VAPID_PRIVATE_KEY_RULE }),
  // Push services besides the public ones (FCM, Mozilla, Apple, Windows) that subscriptions may
  // point at: comma-separated origins, e.g. a self-hosted or test push service.
  PUSH_SERVICE_ORIGINS: z
    .string()
    .default("")
    .refine((v) => list(v).every(isOrigin), { message: "must be comma-separated http(s) origins (scheme://host[:port], no path)" }),
  VAPID_SUBJECT: z
    .string()
    .trim()
    .optional()
    .transform((v) => v || undefined)
    .refine((v) => v === undefined || /^mailto:[^\s@]+@[^\s@]+$/.test(v) || /^https:\/\/[^/\s]+/.test(v), {
      message: "must be a mailto: address or an https:// URL",
    }),
  // Backups (docs/decisions/030-backups.md): where they go, the Japan-time hour of the embedded
  // database's nightly one (or off), and how many are kept.
  BACKUP_DIR: z.string().trim().optional().transform((v) => v || undefined),
  BACKUP_HOUR: z
    .string()
    .trim()
    .default("4")
    .refine((v) => v === "off" || (/^\d+$/.test(v) && Number(v) <= 23), { message: "must be an hour from 0 to 23 (Japan time) or off" })
    .transform((v) => (v === "off" ? null : Number(v))),
  BACKUP_KEEP: wholeNumber("7", 1, 1000),
  // LINE Login (docs/decisions/037-line-login.md): the channel's ID and secret, both or neither.
  LINE_CLIENT_ID: z
    .string()
    .trim()
    .optional()
    .transform((v) => v || undefined)
    .refine((v) => v === undefined || /^\d{6,20}$/.test(v), { message: "must be the LINE Login channel ID (digits)" }),
  LINE_CLIENT_SECRET: z
    .string()
    .trim()
    .optional()
    .transform((v) => v || undefined)
    .refine((v) => v === undefined || /^[0-9a-f]{32}$/.test(v), { message: "must be the LINE Login channel secret (32 hexadecimal characters)" }),
  // Tests only: an OpenID Connect server standing in for LINE at this origin. Refused in production,
  // so a site cannot be pointed at a look-alike provider by accident.
  LINE_TEST_ORIGIN: optionalUrl(["http:", "https:"]),
});

export type Env = {
  nodeEnv: "development" | "production" | "test";
  port: number;
  host: string;
  /**
   * Express's "trust proxy": which peers' X-Forwarded-For is believed, so `req.ip` is the client's
   * address behind them. A hop count, or addresses/CIDR ranges/range names (default loopback).
   */
  trustProxy: number | string[];
  dataDir: string;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  siteUrl: string;
  authSecret: string;
  adminEmails: string[];
  adminUserIds: string[];
  videoChannelUrl: string;
  /** CARD_IMAGE_BASE_URL: card art by the catalogue's image file names, or null. */
  cardImageBaseUrl: string | null;
  logLevel: "debug" | "info" | "warn" | "error" | "silent";
  seedCatalogue: boolean;
  /** Sign-in and sign-up attempts allowed per client IP per minute (each). */
  authRateLimitMax: number;
  /** How long a signed-out visitor's page or public API answer is reused (server/page-cache.ts); 0 = off. */
  pageCacheSeconds: number;
  /** Where uploads go: DATA_DIR/uploads, or an S3-compatible bucket when S3_BUCKET is set. */
  s3: S3Config | undefined;
  /** SMTP_URL (smtp:// or smtps://); undefined: mail is written to DATA_DIR/mail as .eml files. */
  smtpUrl: string | undefined;
  /** MAIL_FROM, or トレポケ <no-reply@the SITE_URL host>. */
  mailFrom: string;
  /** REQUIRE_EMAIL_VERIFICATION=true: sign-in waits until the address is verified. */
  requireEmailVerification: boolean;
  analytics: {
    /** Days raw analytics events are kept (rollups stay). */
    retentionDays: number;
    /** Collection hits accepted per client IP per minute. */
    rateLimitPerMinute: number;
    /** Rows the in-memory buffer holds at most before new ones are dropped (and counted). */
    bufferMax: number;
  };
  /** Prometheus metrics on their own port (METRICS_PORT), off when unset; METRICS_HOST defaults to loopback. */
  metrics: { port: number; host: string } | undefined;
  /** Seconds a stopping instance gives its requests and sends before it cuts them (default 10). */
  shutdownGraceSeconds: number;
  /** Seconds a notification waits, unread and its player away, before it is mailed (default 600). */
  notificationMailDelaySeconds: number;
  /** Web Push signing keys (URL-safe base64) and the contact the push services see. */
  vapid: VapidKeys;
  /** Extra push-service origins subscriptions may use (PUSH_SERVICE_ORIGINS). */
  pushServiceOrigins: string[];
  backups: BackupSettings;
  /** LINE Login, when LINE_CLIENT_ID and LINE_CLIENT_SECRET are set; undefined: no LINE button anywhere. */
  line: LineSettings | undefined;
};

export type LineSettings = {
  clientId: string;
  clientSecret: string;
  /** The ID token's `iss`. */
  issuer: string;
  authorizationUrl: string;
  tokenUrl: string;
};

/** LINE Login v2.1's endpoints (developers.line.biz, "Integrating LINE Login with your web app"). */
const LINE_ENDPOINTS = { issuer: "https://access.line.me", authorize: "https://access.line.me", api: "https://api.line.me" };

export type BackupSettings = {
  /** BACKUP_DIR, default DATA_DIR/backups. */
  dir: string;
  /** The Japan-time hour of the embedded database's nightly backup; null = off. */
  hourJst: number | null;
  /** Backups kept in `dir`; older ones are removed after each new one. */
  keep: number;
};

/** What the backup commands read (loadBackupEnv). */
export type BackupEnv = Pick<Env, "dataDir" | "databaseUrl" | "backups"> & { uploadsLocal: boolean };

export type S3Config = {
  bucket: string;
  /** Custom endpoint (MinIO, R2, …); requests then use path-style URLs. Unset: AWS. */
  endpoint: string | undefined;
  region: string;
  /** Unset: the AWS SDK's own credential chain (instance role, AWS_* variables). */
  credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
  /** The origin + path pages use for a file (a CDN or the bucket's public URL), without a trailing slash. */
  publicUrl: string;
};

/**
 * Parses configuration once. A missing auth secret is generated and kept in DATA_DIR so that
 * `npm install && npm start` works with no set-up and sessions survive restarts.
 */

/** A value as a start-up error shows it: a secret's length only, since the log keeps the line. */
function shownValue(name: string, value: string | undefined): string {
  if (/SECRET|PRIVATE_KEY|PASSWORD/.test(name) && value) return `${value.length} characters`;
  return JSON.stringify(value ?? "");
}

export function loadEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const e = parseEnv(EnvSchema, source);
  const dataDir = resolveDataDir(e.DATA_DIR);
  const port = e.PORT;
  return {
    nodeEnv: e.NODE_ENV,
    port,
    host: e.HOST,
    trustProxy: e.TRUST_PROXY,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    siteUrl: (e.SITE_URL ?? `http://localhost:${port}`).replace(/\/$/, ""),
    authSecret: e.BETTER_AUTH_SECRET ?? readOrCreateSecret(dataDir),
    adminEmails: list(e.ADMIN_EMAILS).map((s) => s.toLowerCase()),
    adminUserIds: list(e.ADMIN_USER_IDS),
    cardImageBaseUrl: e.CARD_IMAGE_BASE_URL ?? null,
    videoChannelUrl: e.VIDEO_CHANNEL_URL ?? "https://www.youtube.com/results?search_query=%E3%83%9D%E3%82%B1%E3%83%9D%E3%82%B1",
    logLevel: e.LOG_LEVEL,
    seedCatalogue: e.SEED_CATALOGUE === "auto",
    authRateLimitMax: e.AUTH_RATE_LIMIT_MAX,
    pageCacheSeconds: e.PAGE_CACHE_SECONDS,
    s3: s3Config(e),
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM ?? `トレポケ <no-reply@${mailHost(e.SITE_URL ?? `http://localhost:${port}`)}>`,
    requireEmailVerification: e.REQUIRE_EMAIL_VERIFICATION === "true",
    analytics: { retentionDays: e.ANALYTICS_RETENTION_DAYS, rateLimitPerMinute: e.ANALYTICS_RATE_LIMIT, bufferMax: e.ANALYTICS_BUFFER_MAX },
    metrics: e.METRICS_PORT === undefined ? undefined : { port: e.METRICS_PORT, host: e.METRICS_HOST },
    shutdownGraceSeconds: e.SHUTDOWN_GRACE_SECONDS,
    notificationMailDelaySeconds: e.NOTIFICATION_MAIL_DELAY_SECONDS,
    vapid: vapidKeys(e, dataDir, vapidSubject(e.VAPID_SUBJECT, e.SITE_URL ?? `http://localhost:${port}`)),
    pushServiceOrigins: list(e.PUSH_SERVICE_ORIGINS).map((o) => new URL(o).origin),
    backups: backupSettings(e, dataDir),
    line: lineSettings(e, source),
  };
}

function lineSettings(e: z.infer<typeof EnvSchema>, source: NodeJS.ProcessEnv): LineSettings | undefined {
  const invalid = (name: string, rule: string) => new ConfigError(`Invalid configuration: ${name} ${rule} (got ${shownValue(name, source[name])})`);
  if (e.LINE_TEST_ORIGIN && e.NODE_ENV === "production") throw invalid("LINE_TEST_ORIGIN", "is for tests only and refused when NODE_ENV is production");
  if (!e.LINE_CLIENT_ID !== !e.LINE_CLIENT_SECRET) {
    throw e.LINE_CLIENT_ID ? invalid("LINE_CLIENT_SECRET", "must be set together with LINE_CLIENT_ID") : invalid("LINE_CLIENT_ID", "must be set together with LINE_CLIENT_SECRET");
  }
  if (!e.LINE_CLIENT_ID || !e.LINE_CLIENT_SECRET) return undefined;
  const origin = e.LINE_TEST_ORIGIN ? new URL(e.LINE_TEST_ORIGIN).origin : undefined;
  const endpoints = origin ? { issuer: origin, authorize: origin, api: origin } : LINE_ENDPOINTS;
  return {
    clientId: e.LINE_CLIENT_ID,
    clientSecret: e.LINE_CLIENT_SECRET,
    issuer: endpoints.issuer,
    authorizationUrl: `${endpoints.authorize}/oauth2/v2.1/authorize`,
    tokenUrl: `${endpoints.api}/oauth2/v2.1/token`,
  };
}

/** DATA_DIR as given (a relative one from the working directory), else data/ in the install folder. */
function resolveDataDir(value: string | undefined): string {
  return value ? path.resolve(value) : path.join(INSTALL_DIR, "data");
}

function parseEnv<S extends z.ZodType>(schema: S, source: NodeJS.ProcessEnv): z.infer<S> {
  const parsed = schema.safeParse(source);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const name = issue.path.join(".");
    throw new ConfigError(`Invalid configuration: ${name} ${issue.message} (got ${shownValue(name, source[name])})`);
  }
  return parsed.data;
}

/**
 * The configuration `npm run db:backup` and `db:restore` need. Unlike loadEnv it writes nothing
 * into DATA_DIR (no generated secret): a restore may be about to fill an empty folder.
 */
export function loadBackupEnv(source: NodeJS.ProcessEnv = process.env): BackupEnv {
  const e = parseEnv(EnvSchema.pick({ DATA_DIR: true, DATABASE_URL: true, S3_BUCKET: true, BACKUP_DIR: true, BACKUP_HOUR: true, BACKUP_KEEP: true }), source);
  const dataDir = resolveDataDir(e.DATA_DIR);
  return { dataDir, databaseUrl: e.DATABASE_URL, uploadsLocal: !e.S3_BUCKET, backups: backupSettings(e, dataDir) };
}

function backupSettings(e: Pick<z.infer<typeof EnvSchema>, "BACKUP_DIR" | "BACKUP_HOUR" | "BACKUP_KEEP">, dataDir: string): BackupSettings {
  return { dir: e.BACKUP_DIR ? path.resolve(e.BACKUP_DIR) : path.join(dataDir, "backups"), hourJst: e.BACKUP_HOUR, keep: e.BACKUP_KEEP };
}

function s3Config(e: z.infer<typeof EnvSchema>): S3Config | undefined {
  if (!e.S3_BUCKET) return undefined;
  if (Boolean(e.S3_ACCESS_KEY_ID) !== Boolean(e.S3_SECRET_ACCESS_KEY)) {
    const missing = e.S3_ACCESS_KEY_ID ? "S3_SECRET_ACCESS_KEY" : "S3_ACCESS_KEY_ID";
    throw new ConfigError(`Invalid configuration: ${missing} must be set together with ${missing === "S3_ACCESS_KEY_ID" ? "S3_SECRET_ACCESS_KEY" : "S3_ACCESS_KEY_ID"}`);
  }
  const publicUrl =
    e.S3_PUBLIC_URL ??
    (e.S3_ENDPOINT ? `${e.S3_ENDPOINT.replace(/\/$/, "")}/${e.S3_BUCKET}` : `https://${e.S3_BUCKET}.s3.${e.S3_REGION}.amazonaws.com`);
  return {
    bucket: e.S3_BUCKET,
    endpoint: e.S3_ENDPOINT,
    region: e.S3_REGION,
    credentials: e.S3_ACCESS_KEY_ID && e.S3_SECRET_ACCESS_KEY ? { accessKeyId: e.S3_ACCESS_KEY_ID, secretAccessKey: e.S3_SECRET_ACCESS_KEY } : undefined,
    publicUrl: publicUrl.replace(/\/$/, ""),
  };
}

/** VAPID_SUBJECT, else SITE_URL when it is https, else a no-reply address of its host. */
function vapidSubject(given: string | undefined, siteUrl: string): string {
  return given ?? (siteUrl.startsWith("https://") ? siteUrl : `mailto:no-reply@${mailHost(siteUrl)}`);
}

/** The sender domain of the default MAIL_FROM: SITE_URL's host (localhost or an IP becomes "localhost.localdomain", which mail servers accept). */
function mailHost(siteUrl: string): string {
  const host = new URL(siteUrl).hostname;
  // An IP address or a single-label host is no mail domain.
  return host.includes(".") && !/^[\d.]+$/.test(host) && !host.includes(":") ? host : "localhost.localdomain";
}
