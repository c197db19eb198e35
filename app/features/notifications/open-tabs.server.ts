import type { Logger } from "#app/lib/logger.server.ts";

/**
 * The player's open tabs, as the realtime layer reaches them (server/realtime.ts sets it): every
 * notification written or bumped is told to them, whatever its kind and wherever its cause ran
 * (a chat socket, an HTTP action, a timer), so the bell and the title follow without a reload.
 * Without sockets (tests, a worker-only process) nobody is told.
 */
export type OpenTabs = {
  /**
   * The player's unread notifications changed: each of their open tabs learns the new count
   * (`unread`, when the caller read it in its own statement; else the tabs' instance reads it).
   */
  noticeChanged(userId: string, unread?: number): Promise<void>;
};

const nowhere: OpenTabs = { noticeChanged: async () => {} };

let current: OpenTabs = nowhere;

/** A failed fan-out (Redis away) loses only this nudge: the next event or navigation reads the count again. */
export function setOpenTabs(tabs: OpenTabs | null, log?: Logger): void {
  current = tabs
    ? {
        noticeChanged: (userId, unread) =>
          tabs.noticeChanged(userId, unread).catch((err: unknown) => {
            log?.warn("telling open tabs failed", { error: err instanceof Error ? err.message : String(err) });
          }),
      }
    : nowhere;
}

export function openTabs(): OpenTabs {
  return current;
}
