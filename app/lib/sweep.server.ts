import type { Logger } from "./logger.server";

/**
 * A periodic sweep of the database (expiry reminders, notification digests): a first run shortly
 * after start-up, then one every `everyMs`. `run` answers how many things it did; a run that did
 * something logs `did` with that count (a sweep that logs its own lines leaves `did` out), and a
 * failed run logs `failed` and waits for the next.
 * The timers never keep the process alive; stop() ends them.
 */
export function startSweep(options: {
  run: () => Promise<number>;
  firstAfterMs: number;
  everyMs: number;
  log: Logger;
  did?: string;
  failed: string;
}): { stop(): void } {
  const sweep = () => {
    options
      .run()
      .then((n) => n > 0 && options.did && options.log.info(options.did, { count: n }))
      .catch((err: unknown) =>
        options.log.warn(options.failed, {
          error: err instanceof Error ? err.message : String(err),
        }),
      );
  };
  const first = setTimeout(sweep, options.firstAfterMs);
  const timer = setInterval(sweep, options.everyMs);
  first.unref();
  timer.unref();
  return {
    stop: () => {
      clearTimeout(first);
      clearInterval(timer);
    },
  };
}
