import type { Logger } from "#app/lib/logger.server.ts";

/**
 * Who is here right now, as the realtime layer knows it (server/realtime.ts sets it): deliveries
 * ask before they go out. Without sockets (tests, a worker-only process) nobody is present.
 */
export type Presence = {
  /** The player has a live connection (any open tab of the site). */
  isOnline(userId: string): Promise<boolean>;
  /** The player has that very chat room open. */
  isViewingRoom(userId: string, roomId: string): Promise<boolean>;
};

const nobody: Presence = {
  isOnline: async () => false,
  isViewingRoom: async () => false,
};

let current: Presence = nobody;

/**
 * A lookup that fails (a Redis timeout while asking the other instances) answers "not here": a
 * push or mail too many is better than a notification lost.
 */
function absentOnFailure(presence: Presence, log?: Logger): Presence {
  const fallback = (what: string) => (err: unknown) => {
    log?.warn("presence lookup failed; treated as not present", {
      what,
      error: err instanceof Error ? err.message : String(err),
    });
    return false;
  };
  return {
    isOnline: (userId) => presence.isOnline(userId).catch(fallback("online")),
    isViewingRoom: (userId, roomId) =>
      presence.isViewingRoom(userId, roomId).catch(fallback("room")),
  };
}

export function setPresence(presence: Presence | null, log?: Logger): void {
  current = presence ? absentOnFailure(presence, log) : nobody;
}

export function presence(): Presence {
  return current;
}
