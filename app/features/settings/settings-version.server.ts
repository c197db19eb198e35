/**
 * A counter of site-settings writes, like the board's (lib/board-version.server.ts): the settings
 * cache is kept per version, so a save on this instance shows on its next page at once. With
 * REDIS_URL, server/realtime.ts relays each local save to the other instances, which bump their
 * own counter; every instance also drops its signed-out page cache on any save (server/http.ts).
 */
let version = 0;
const localListeners = new Set<() => void>();
const anyListeners = new Set<() => void>();

export function settingsVersion(): number {
  return version;
}

/** Settings were saved on this instance. */
export function noteSettingsChange(): void {
  version++;
  for (const listener of localListeners) listener();
  for (const listener of anyListeners) listener();
}

/** Another instance saved settings. */
export function noteRemoteSettingsChange(): void {
  version++;
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
