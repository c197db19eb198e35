/**
 * The change bus: writes that make something kept elsewhere stale are published here once, and
 * whoever keeps a derived copy subscribes. One typed map names every kind of change and what it
 * carries; adding a kind is one line here.
 *
 * - `board`: what the trade board shows anyone — offers posted, edited, bumped, closed, taken,
 *   completed or deleted; blocks; suspensions; display names; trade rules. マッチ (kept per board
 *   version) and the signed-out page cache's board pages listen.
 * - `content`: published content — articles and deck recipes. The public article and deck caches
 *   and the signed-out page cache listen.
 * - `settings`: the site settings. The settings cache and the signed-out page cache listen.
 *
 * A change is published after its transaction commits, never inside it. Every kind has a counter
 * (`changeVersion`) for caches kept per version. With REDIS_URL, server/change-relay.ts sends each
 * local change to the other instances, which deliver it to their own subscribers as a remote
 * change: caches stay coherent across a fleet. Writes made outside the app (a CLI, SQL by hand)
 * and time itself are covered by the caches' own TTLs.
 */
export type ChangeEvents = {
  board: void;
  content: void;
  settings: void;
};

export type ChangeKind = keyof ChangeEvents;

export const CHANGE_KINDS: readonly ChangeKind[] = ["board", "content", "settings"];

/** Where a change was made: on this instance, or on another one (relayed). */
export type ChangeOrigin = "local" | "remote";

type Payload<K extends ChangeKind> = ChangeEvents[K] extends void ? [] : [payload: ChangeEvents[K]];
type Listener<K extends ChangeKind> = (origin: ChangeOrigin, ...payload: Payload<K>) => unknown;
type LocalListener = (kind: ChangeKind, ...payload: unknown[]) => unknown;

const versions = new Map<ChangeKind, number>(CHANGE_KINDS.map((kind) => [kind, 0]));
const listeners = new Map<ChangeKind, Set<Listener<ChangeKind>>>(CHANGE_KINDS.map((kind) => [kind, new Set()]));
const localListeners = new Set<LocalListener>();

/** How many changes of this kind this instance has seen (its own and relayed ones). */
export function changeVersion(kind: ChangeKind): number {
  return versions.get(kind) ?? 0;
}

function deliver<K extends ChangeKind>(kind: K, origin: ChangeOrigin, payload: Payload<K>): void {
  for (const listener of listeners.get(kind) ?? []) (listener as Listener<K>)(origin, ...payload);
}

/** A write on this instance changed something of this kind: the relay hears it first, then the caches. */
export function publishChange<K extends ChangeKind>(kind: K, ...payload: Payload<K>): void {
  versions.set(kind, changeVersion(kind) + 1);
  for (const listener of localListeners) listener(kind, ...payload);
  deliver(kind, "local", payload);
}

/** The relay hands over a change another instance published. */
export function receiveRemoteChange<K extends ChangeKind>(kind: K, ...payload: Payload<K>): void {
  versions.set(kind, changeVersion(kind) + 1);
  deliver(kind, "remote", payload);
}

/** Changes of one kind, made anywhere. Returns the unsubscribe function. */
export function onChange<K extends ChangeKind>(kind: K, listener: Listener<K>): () => void {
  const set = listeners.get(kind)!;
  set.add(listener as Listener<ChangeKind>);
  return () => set.delete(listener as Listener<ChangeKind>);
}

/** For the relay: every change published on this instance. Returns the unsubscribe function. */
export function onLocalChange(listener: LocalListener): () => void {
  localListeners.add(listener);
  return () => localListeners.delete(listener);
}

export function isChangeKind(value: unknown): value is ChangeKind {
  return typeof value === "string" && (CHANGE_KINDS as readonly string[]).includes(value);
}
