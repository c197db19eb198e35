import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import webpush from "web-push";
import { ConfigError } from "./config-error";

// The secrets a site keeps in DATA_DIR when they are not configured (env.server.ts reads the
// configuration): a new one on every start would log everyone out or cut every device off.

/** The secrets generated into DATA_DIR when BETTER_AUTH_SECRET / VAPID_* are unset (backups carry them). */
export const AUTH_SECRET_FILE = "auth-secret";
export const VAPID_FILE = "vapid.json";

export const VAPID_PUBLIC_KEY_RULE = "must be an uncompressed P-256 public key in URL-safe base64 (65 bytes)";
export const VAPID_PRIVATE_KEY_RULE = "must be a P-256 private key in URL-safe base64 (32 bytes)";

export function isVapidPublicKey(v: string): boolean {
  const bytes = Buffer.from(v, "base64url");
  return /^[A-Za-z0-9_-]+$/.test(v) && bytes.length === 65 && bytes[0] === 4;
}

export function isVapidPrivateKey(v: string): boolean {
  return /^[A-Za-z0-9_-]+$/.test(v) && Buffer.from(v, "base64url").length === 32;
}

export type VapidKeys = { publicKey: string; privateKey: string; subject: string };

/**
 * VAPID_PUBLIC_KEY + VAPID_PRIVATE_KEY (both or neither), else a pair generated on first start
 * into DATA_DIR/vapid.json like the auth secret: a new pair would orphan every subscription.
 */
export function vapidKeys(e: { VAPID_PUBLIC_KEY?: string; VAPID_PRIVATE_KEY?: string }, dataDir: string, subject: string): VapidKeys {
  if (Boolean(e.VAPID_PUBLIC_KEY) !== Boolean(e.VAPID_PRIVATE_KEY)) {
    const missing = e.VAPID_PUBLIC_KEY ? "VAPID_PRIVATE_KEY" : "VAPID_PUBLIC_KEY";
    throw new ConfigError(`Invalid configuration: ${missing} must be set together with ${missing === "VAPID_PUBLIC_KEY" ? "VAPID_PRIVATE_KEY" : "VAPID_PUBLIC_KEY"}`);
  }
  if (e.VAPID_PUBLIC_KEY && e.VAPID_PRIVATE_KEY) return { publicKey: e.VAPID_PUBLIC_KEY, privateKey: e.VAPID_PRIVATE_KEY, subject };
  const file = path.join(dataDir, VAPID_FILE);
  if (existsSync(file)) return { ...readVapidFile(file), subject };
  const keys = generateVapidKeys();
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(file, `${JSON.stringify(keys)}\n`, { mode: 0o600 });
  return { ...keys, subject };
}

/** A new VAPID pair (web-push pads the private key to 32 bytes, the public one to 65). */
export function generateVapidKeys(): { publicKey: string; privateKey: string } {
  const { publicKey, privateKey } = webpush.generateVAPIDKeys();
  return { publicKey, privateKey };
}

/** DATA_DIR/vapid.json, held to the rules of VAPID_*: a broken file stops start-up rather than being replaced (that would cut every device off). */
function readVapidFile(file: string): { publicKey: string; privateKey: string } {
  let saved: unknown;
  try {
    saved = JSON.parse(readFileSync(file, "utf8"));
  } catch (err) {
    throw new ConfigError(`Invalid configuration: ${file} is not readable JSON (${err instanceof Error ? err.message.split("\n")[0] : String(err)}); restore it or set VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY`);
  }
  const { publicKey, privateKey } = (saved ?? {}) as { publicKey?: unknown; privateKey?: unknown };
  if (typeof publicKey !== "string" || !isVapidPublicKey(publicKey)) throw new ConfigError(`Invalid configuration: publicKey in ${file} ${VAPID_PUBLIC_KEY_RULE}`);
  if (typeof privateKey !== "string" || !isVapidPrivateKey(privateKey)) throw new ConfigError(`Invalid configuration: privateKey in ${file} ${VAPID_PRIVATE_KEY_RULE}`);
  return { publicKey, privateKey };
}

/** BETTER_AUTH_SECRET's stand-in: DATA_DIR/auth-secret, created on first start (backups carry it). */
export function readOrCreateSecret(dataDir: string): string {
  const file = path.join(dataDir, AUTH_SECRET_FILE);
  if (existsSync(file)) {
    const secret = readFileSync(file, "utf8").trim();
    if (secret.length >= 32) return secret;
  }
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString("base64url");
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}
