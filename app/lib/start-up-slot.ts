/**
 * One thing a feature needs from another, filled at start-up (app/registrations.server.ts) so
 * the two do not import each other both ways. Reading it before it is filled is a start-up
 * mistake, and throws rather than quietly doing without (a related block stored as "not found",
 * a notification never written).
 */
export type StartUpSlot<T> = { fill(value: T): void; get(): T };

export function startUpSlot<T>(what: string): StartUpSlot<T> {
  let value: T | null = null;
  return {
    fill(next) {
      value = next;
    },
    get() {
      if (value === null) throw new Error(`${what} is not registered: registerFeatureLinks() (app/registrations.server.ts) runs at start-up`);
      return value;
    },
  };
}
