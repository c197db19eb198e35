import type { Db } from "#app/db/client.server.ts";
import type { Logger } from "#app/lib/logger.server.ts";
import { notifyExpiringOffers } from "./notifications.server";
import { startSweep } from "#app/lib/sweep.server.ts";

/** Reminders are written this often; a reminder is at most this late in a 12-hour window. */
export const EXPIRY_SWEEP_MS = 5 * 60_000;

/**
 * Writes the "expires within 12 hours" notifications on a timer. Every instance may run it: the
 * notification's dedupe key makes each reminder once, whoever writes it first.
 */
export function startExpiryReminders(db: Db, log: Logger): { stop(): void } {
  return startSweep({ run: () => notifyExpiringOffers(db), firstAfterMs: 10_000, everyMs: EXPIRY_SWEEP_MS, log, did: "expiry reminders written", failed: "expiry reminders failed" });
}
