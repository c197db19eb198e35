import { sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { rowsOf } from "#app/db/sql.server.ts";
import { z } from "#app/lib/zod.ts";
import { defineDeliveryKind, enqueueDelivery, registerDeliveryHandler, startOutboxWorker, type OutboxWorker } from "#app/features/outbox/outbox.server.ts";
import { createTestDatabase, type TestDatabase } from "#tests/support/test-db.ts";
import { until } from "#tests/support/wait.ts";

// An instance being replaced stops its outbox worker (server/app.ts shutdown): the rows it holds
// must not wait out their 2-minute lease before another instance sends them.
let database: TestDatabase;
const workers: OutboxWorker[] = [];
const runs = new Map<string, number>();
const held = new Map<string, () => void>();

const HANDBACK = defineDeliveryKind("test-handback", z.object({ key: z.string(), stamp: z.string() }));

beforeAll(async () => {
  database = await createTestDatabase();
  // A row whose key starts with "hold" is delivered only when the test lets it go.
  registerDeliveryHandler(HANDBACK, async ({ key }) => {
    runs.set(key, (runs.get(key) ?? 0) + 1);
    if (key.startsWith("hold")) await new Promise<void>((resolve) => held.set(key, resolve));
  });
});
afterEach(async () => {
  for (const release of held.values()) release();
  await Promise.all(workers.splice(0).map((w) => w.stop()));
});
afterAll(async () => {
  await database?.close();
});

function worker(workerId: string) {
  const w = startOutboxWorker({ db: database.db, workerId, pollMs: 20, concurrency: 1 });
  workers.push(w);
  return w;
}

type Row = { key: string; status: string; attempts: number; locked_by: string | null; leased: boolean };
async function rows(stamp: string): Promise<Map<string, Row>> {
  const found = await rowsOf<Row>(
    database.db,
    sql`select payload->>'key' as key, status, attempts, locked_by, coalesce(locked_until > now(), false) as leased
        from delivery_outbox where kind = 'test-handback' and payload->>'stamp' = ${stamp}`,
  );
  return new Map(found.map((r) => [r.key, { ...r, attempts: Number(r.attempts) }]));
}

describe("outbox hand-back when a worker stops", () => {
  it("a stopping worker finishes the row it is sending and hands back the others, which another instance sends at once; it claims nothing more", async () => {
    const stamp = `s${Date.now()}`;
    const others = ["b", "c", "d", "e", "f"];
    for (const key of ["hold-a", ...others]) await enqueueDelivery(database.db, HANDBACK, { payload: { key, stamp } });

    // One lane: A delivers hold-a and holds the five others on its lease (2 minutes by default).
    const a = worker("instance-a");
    await until(() => held.has("hold-a"), "instance A delivering the first row");
    const claimedByA = await rows(stamp);
    for (const key of others) expect(claimedByA.get(key)).toMatchObject({ status: "pending", locked_by: "instance-a", leased: true, attempts: 1 });

    const stopping = a.stop();
    // B starts while A is still sending hold-a: it gets the five at once, long before A's lease ends.
    worker("instance-b");
    await until(async () => others.every((key) => runs.get(key) === 1), "instance B delivering the handed-back rows", 5_000);
    await until(async () => [...(await rows(stamp)).values()].filter((r) => r.status === "sent").length === others.length, "B's rows marked sent");
    expect((await rows(stamp)).get("hold-a")).toMatchObject({ status: "pending", locked_by: "instance-a", leased: true });

    held.get("hold-a")!();
    await stopping;
    const after = await rows(stamp);
    expect(after.get("hold-a")).toMatchObject({ status: "sent", locked_by: "instance-a", attempts: 1 });
    // Handed back untried: B's claim is their first attempt.
    for (const key of others) expect(after.get(key)).toMatchObject({ status: "sent", locked_by: "instance-b", attempts: 1 });
    for (const key of ["hold-a", ...others]) expect(runs.get(key)).toBe(1);

    // Stopped means stopped: a row queued now is B's.
    await enqueueDelivery(database.db, HANDBACK, { payload: { key: "late", stamp } });
    await until(async () => (await rows(stamp)).get("late")?.status === "sent", "the late row");
    expect((await rows(stamp)).get("late")).toMatchObject({ locked_by: "instance-b", attempts: 1 });
    expect(runs.get("late")).toBe(1);
  });

  it("a worker stopped while a row it holds is still being sent leaves that row on its lease (no one sends it twice)", async () => {
    const stamp = `s${Date.now()}-lease`;
    await enqueueDelivery(database.db, HANDBACK, { payload: { key: "hold-only", stamp } });
    const a = worker("instance-c");
    await until(() => held.has("hold-only"), "instance C delivering the row");
    const stopping = a.stop();
    worker("instance-d");
    // D has claimed since C began to stop (it sent a row queued after), yet the row C is sending stays C's.
    await enqueueDelivery(database.db, HANDBACK, { payload: { key: "probe", stamp } });
    await until(async () => (await rows(stamp)).get("probe")?.status === "sent", "D sending a row queued after the stop");
    expect((await rows(stamp)).get("hold-only")).toMatchObject({ status: "pending", locked_by: "instance-c", leased: true });
    held.get("hold-only")!();
    await stopping;
    expect((await rows(stamp)).get("hold-only")).toMatchObject({ status: "sent", locked_by: "instance-c", attempts: 1 });
    expect(runs.get("hold-only")).toBe(1);
  });
});
