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

export function setPresence(presence: Presence | null): void {
  current = presence ?? nobody;
}

export function presence(): Presence {
  return current;
}
