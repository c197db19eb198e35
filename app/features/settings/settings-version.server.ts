/**
 * Site-settings saves, told to whoever keeps something derived from them: the settings cache
 * (settings.server.ts) and the signed-out page cache (server/http.ts) listen to saves made
 * anywhere; with REDIS_URL, server/realtime.ts relays each local save to the other instances,
 * like the board's changes (lib/board-version.server.ts).
 */
const localListeners = new Set<() => void>();
const anyListeners = new Set<() => void>();

/** Settings were saved on this instance. */
export function noteSettingsChange(): void {
  for (const listener of localListeners) listener();
  for (const listener of anyListeners) listener();
}

/** Another instance saved settings. */
export function noteRemoteSettingsChange(): void {
  for (const listener of anyListeners) listener();
}

/** For the relay: saves made here. */
export function onLocalSettingsChange(listener: () => void): () => void {
  localListeners.add(listener);
  return () => localListeners.delete(listener);
}

/** For caches of rendered pages: saves made anywhere. */
export function onSettingsChange(listener: () => void): () => void {
  anyListeners.add(listener);
  return () => anyListeners.delete(listener);
}
