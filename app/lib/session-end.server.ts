/**
 * Sessions that just ended (signed out, revoked from the device list, ended by a password change
 * or reset, or by account deletion). Live connections opened with such a session listen here and
 * close (server/realtime.ts): a socket checks the session only at its handshake.
 */
const listeners = new Set<(sessionIds: string[]) => void>();

export function noteSessionsEnded(sessionIds: readonly string[]): void {
  if (sessionIds.length === 0) return;
  for (const listener of listeners) listener([...sessionIds]);
}

export function onSessionsEnded(listener: (sessionIds: string[]) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
