/**
 * A counter of writes to published content (articles; deck recipes too): the public content
 * caches are kept per version, so a save on this instance shows on its next request. With
 * REDIS_URL, server/realtime.ts relays each local write to the other instances, which bump their
 * own counter; every instance also empties its signed-out page cache on any write (server/http.ts),
 * so an unpublished article is a 404 at once, not after the page cache's TTL.
 */
let version = 0;
const localListeners = new Set<() => void>();
const anyListeners = new Set<() => void>();

export function contentVersion(): number {
  return version;
}

/** Content was written on this instance. */
export function noteContentChange(): void {
  version++;
  for (const listener of localListeners) listener();
  for (const listener of anyListeners) listener();
}

/** Another instance wrote content. */
export function noteRemoteContentChange(): void {
  version++;
  for (const listener of anyListeners) listener();
}

/** For the relay: writes made here. */
export function onLocalContentChange(listener: () => void): () => void {
  localListeners.add(listener);
  return () => localListeners.delete(listener);
}

/** For caches of rendered pages: writes made anywhere. */
export function onContentChange(listener: () => void): () => void {
  anyListeners.add(listener);
  return () => anyListeners.delete(listener);
}
