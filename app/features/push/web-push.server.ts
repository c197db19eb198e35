import webpush from "web-push";
import type { VapidKeys } from "#app/lib/data-dir-secrets.server.ts";
import { TemporaryDeliveryError } from "#app/features/outbox/outbox.server.ts";
import { isPushServiceEndpoint } from "./push-services";

/** What the service worker (public/sw.js) shows: it always shows a notification for a push. */
export type PushMessage = {
  title: string;
  body: string;
  /** Where a click takes the player (a path of this site). */
  url: string;
  /** Notifications with one tag replace each other on the device (one per chat room). */
  tag: string;
  /** Quiet hours in "silent" mode: shown without sound or vibration. */
  silent?: boolean;
  /** The inbox count to show on the app icon, when the device supports badges. */
  badge?: number;
  /** The player's language ("ja" | "en"), for the notification's lang. */
  lang?: string;
};

export type PushTarget = { endpoint: string; p256dh: string; auth: string };
export type PushOptions = { ttlSeconds: number; urgency: "very-low" | "low" | "normal" | "high"; topic?: string };

/**
 * The subscription is no use any more: the push service said it no longer exists (404/410) or
 * refuses this site's key (403), it answered a redirect, or the endpoint is not a known push
 * service. Delete it, don't retry.
 */
export class PushGoneError extends Error {
  override name = "PushGoneError";
}

/**
 * Encrypts (aes128gcm) and signs (VAPID) one message with the web-push package, and sends it
 * with fetch: web-push builds the request, this code owns the connection and its timeout.
 * Only to a known push service (`pushServiceOrigins`: the extra ones configured), and redirects
 * are not followed. Answers: 201/200 sent; 403/404/410 and 3xx PushGoneError; 429, 5xx and
 * network trouble TemporaryDeliveryError (the outbox retries); any other status a permanent Error.
 */
export async function sendPush(vapid: VapidKeys, target: PushTarget, message: PushMessage, options: PushOptions, pushServiceOrigins: readonly string[]): Promise<void> {
  if (!isPushServiceEndpoint(target.endpoint, pushServiceOrigins)) throw new PushGoneError("the endpoint is not at a known push service");
  const details = webpush.generateRequestDetails({ endpoint: target.endpoint, keys: { p256dh: target.p256dh, auth: target.auth } }, JSON.stringify(message), {
    vapidDetails: vapid,
    TTL: options.ttlSeconds,
    urgency: options.urgency,
    ...(options.topic ? { topic: options.topic } : {}),
    contentEncoding: "aes128gcm",
  });
  let response: Response;
  try {
    response = await fetch(details.endpoint, {
      method: details.method,
      headers: details.headers as Record<string, string>,
      body: details.body ? new Uint8Array(details.body) : null,
      // A push service never redirects; following one would let an endpoint reach any host.
      redirect: "manual",
      // Well inside the outbox lease: a hung push service cannot make a row be sent twice.
      signal: AbortSignal.timeout(20_000),
    });
  } catch (err) {
    throw new TemporaryDeliveryError(`push service unreachable: ${err instanceof Error ? err.message : String(err)}`);
  }
  // The body is drained so the connection can be reused.
  const text = await response.text().catch(() => "");
  if (response.status === 200 || response.status === 201 || response.status === 202) return;
  const reason = `push service answered ${response.status}${text ? `: ${text.slice(0, 200)}` : ""}`;
  if (response.status === 403 || response.status === 404 || response.status === 410 || (response.status >= 300 && response.status < 400)) throw new PushGoneError(reason);
  if (response.status === 429 || response.status >= 500) throw new TemporaryDeliveryError(reason);
  throw new Error(reason);
}

/*
 * A push service keeps only the latest undelivered push of one `Topic` (RFC 8030 §5.4: at most 32
 * characters of the URL-safe base64 alphabet) for a device. Each push has one, like its `tag` on
 * the device: a push sent again after a crash (sent, not yet marked) replaces the first while the
 * device is away, and the device's tag folds it when it is not.
 */

/** The topic of a chat room's pushes: each new message replaces the last. */
export function roomTopic(roomId: string): string {
  return `r${roomId.replace(/-/g, "").slice(0, 31)}`;
}

/** The topic of a notification outside a chat room (its uuid, 22 base64url characters): a bump replaces it. */
export function notificationTopic(notificationId: string): string {
  return `n${Buffer.from(notificationId.replace(/-/g, ""), "hex").toString("base64url")}`;
}

/** The test button's pushes (tag "test"): the latest replaces an earlier one. */
export const TEST_PUSH_TOPIC = "test";
