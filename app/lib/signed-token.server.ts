import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * A token a mail link carries without anything stored for it: `<payload as base64url>.<HMAC>`,
 * signed with the auth secret under a purpose, so a token made for one link (unsubscribing from
 * mail) is never accepted by another (cancelling a change of address). Whatever must expire or be
 * used once is decided by the caller from the payload (a time in it, a stamp in the database).
 */
export function signToken(secret: string, purpose: string, payload: string): string {
  return `${Buffer.from(payload, "utf8").toString("base64url")}.${signature(secret, purpose, payload)}`;
}

/** The payload of a token signed for `purpose`, or null when it is malformed or not ours. */
export function verifySignedToken(secret: string, purpose: string, token: string | null | undefined): string | null {
  if (typeof token !== "string" || token.length > 2000) return null;
  const [encoded, given, extra] = token.split(".");
  if (!encoded || !given || extra !== undefined) return null;
  const payload = Buffer.from(encoded, "base64url").toString("utf8");
  const expected = Buffer.from(signature(secret, purpose, payload));
  const received = Buffer.from(given);
  return received.length === expected.length && timingSafeEqual(received, expected) ? payload : null;
}

const signature = (secret: string, purpose: string, payload: string) => createHmac("sha256", secret).update(`${purpose}:${payload}`).digest("base64url");
