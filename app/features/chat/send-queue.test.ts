import { describe, expect, it } from "vitest";
import { addToOutbox, clearChatOutboxes, countAttempt, outboxKey, readOutbox, refusalOutcome, removeFromOutbox, type PendingMessage } from "./send-queue";

function memoryStorage(): Storage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    key: (i) => [...items.keys()][i] ?? null,
    getItem: (k) => items.get(k) ?? null,
    setItem: (k, v) => void items.set(k, String(v)),
    removeItem: (k) => void items.delete(k),
    clear: () => items.clear(),
  };
}

const entry = (clientId: string, queuedAt: number): PendingMessage => ({ clientId, body: `body ${clientId}`, attempts: 0, queuedAt });

describe("chat outbox", () => {
  it("keeps what every tab queued: each write merges instead of overwriting", () => {
    const storage = memoryStorage();
    const key = outboxKey("user-b", "room-1");
    // Tab X and tab Y queue in turns while offline.
    addToOutbox(storage, key, entry("x1", 1));
    addToOutbox(storage, key, entry("y1", 2));
    addToOutbox(storage, key, entry("x2", 3));
    addToOutbox(storage, key, entry("x3", 4));
    addToOutbox(storage, key, entry("y2", 5));
    expect(readOutbox(storage, key).map((p) => p.clientId)).toEqual(["x1", "y1", "x2", "x3", "y2"]);
    // A tab retrying counts an attempt without losing the others' entries; an ack removes one.
    countAttempt(storage, key, "y1");
    removeFromOutbox(storage, key, "x1");
    expect(readOutbox(storage, key).map((p) => [p.clientId, p.attempts])).toEqual([["y1", 1], ["x2", 0], ["x3", 0], ["y2", 0]]);
    // The same clientId queued twice (two tabs re-reading) is one entry.
    addToOutbox(storage, key, entry("x2", 3));
    expect(readOutbox(storage, key)).toHaveLength(4);
  });

  it("belongs to one user: another user's key is separate, log-out clears all", () => {
    const storage = memoryStorage();
    addToOutbox(storage, outboxKey("user-b", "room-1"), entry("b1", 1));
    expect(readOutbox(storage, outboxKey("user-a", "room-1"))).toEqual([]);
    storage.setItem("torepoke.chat.outbox.room-1", JSON.stringify([entry("old", 0)]));
    storage.setItem("torepoke.language", "en");
    clearChatOutboxes(storage);
    expect(readOutbox(storage, outboxKey("user-b", "room-1"))).toEqual([]);
    expect(storage.getItem("torepoke.chat.outbox.room-1")).toBeNull();
    expect(storage.getItem("torepoke.language")).toBe("en");
  });

  it("ignores unreadable storage", () => {
    const storage = memoryStorage();
    storage.setItem(outboxKey("u", "r"), "{not json");
    expect(readOutbox(storage, outboxKey("u", "r"))).toEqual([]);
    storage.setItem(outboxKey("u", "r"), JSON.stringify([{ clientId: 1 }, { clientId: "ok", body: "b" }]));
    expect(readOutbox(storage, outboxKey("u", "r"))).toEqual([{ clientId: "ok", body: "b", attempts: 0, queuedAt: 0 }]);
  });
});

describe("a refused message", () => {
  it("is sent again later after a limit or a failure of ours, and dropped when sending again changes nothing", () => {
    expect(refusalOutcome("rate_limited")).toBe("retry-later");
    expect(refusalOutcome("unavailable")).toBe("retry-later");
    for (const code of ["blocked", "not_found", "too_long", "empty", "invalid", "suspended", "whatever"]) expect(refusalOutcome(code)).toBe("drop");
  });
});
