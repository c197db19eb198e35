import type { Db } from "../../db/client.server";
import type { Logger } from "../../lib/logger.server";
import { notifyExpiringOffers } from "./notifications.server";

/** Reminders are written this often; a reminder is at most this late in a 12-hour window. */
export const EXPIRY_SWEEP_MS = 5 * 60_000;

/**
 * Writes the "expires within 12 hours" notifications on a timer. Every instance may run it: the
 * notification's dedupe key makes each reminder once, whoever writes it first.
 */
export function startExpiryReminders(db: Db, log: Logger): { stop(): void } {
  const sweep = () => {
    notifyExpiringOffers(db)
      .then((n) => n > 0 && log.info("expiry reminders written", { count: n }))
      .catch((err: unknown) => log.warn("expiry reminders failed", { error: err instanceof Error ? err.message : String(err) }));
  };
  const first = setTimeout(sweep, 10_000);
  const timer = setInterval(sweep, EXPIRY_SWEEP_MS);
  first.unref();
  timer.unref();
  return {
    stop: () => {
      clearTimeout(first);
      clearInterval(timer);
    },
  };
}
