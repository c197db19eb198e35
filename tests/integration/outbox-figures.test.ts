import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf } from "#app/db/sql.server.ts";
import { z } from "#app/lib/zod.ts";
import { outboxFigures, outboxFiguresQuery } from "#app/features/outbox/outbox-figures.server.ts";
import { defineDeliveryKind, deliveryOutcomes, PermanentDeliveryError, registerDeliveryHandler, startOutboxWorker } from "#app/features/outbox/outbox.server.ts";
import { createLogger } from "#app/lib/logger.server.ts";
import { createMetrics } from "#server/metrics.ts";
import { createTestDatabase, type TestDatabase } from "#tests/support/test-db.ts";
import { until } from "#tests/support/wait.ts";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

const insert = (kind: string, fields: { status?: string; runAt?: string; lastError?: string; finishedAt?: string }) =>
  database.db.execute(
    sql`insert into delivery_outbox (kind, payload, status, run_at, last_error, finished_at)
        values (${kind}, '{}'::jsonb, ${fields.status ?? "pending"}, ${sql.raw(fields.runAt ?? "now()")}, ${fields.lastError ?? null}, ${fields.finishedAt ? sql.raw(fields.finishedAt) : null})`,
  );

describe("outbox figures (health panel and metrics)", () => {
  it("an empty outbox has no lag and nothing waiting or failed", async () => {
    expect(await outboxFigures(database.db)).toEqual({ pending: 0, due: 0, lagS: 0, retrying: 0, failedLastDay: 0 });
  });

  it("count what waits, how late the oldest due row is, what is retried and what failed in the last day", async () => {
    // Kinds no worker in this file delivers, so the rows stay as written.
    await insert("figures-idle", { runAt: "now() - interval '90 seconds'" });
    await insert("figures-idle", { runAt: "now() - interval '10 seconds'", lastError: "451 try later" });
    await insert("figures-idle", { runAt: "now() + interval '1 hour'" });
    await insert("figures-idle", { status: "failed", runAt: "now() - interval '1 hour'", lastError: "550", finishedAt: "now() - interval '1 hour'" });
    await insert("figures-idle", { status: "failed", runAt: "now() - interval '3 days'", lastError: "550", finishedAt: "now() - interval '2 days'" });
    await insert("figures-idle", { status: "sent", runAt: "now() - interval '3 days'", finishedAt: "now() - interval '3 days'" });
    const figures = await outboxFigures(database.db);
    expect({ ...figures, lagS: undefined }).toEqual({ pending: 3, due: 2, lagS: undefined, retrying: 1, failedLastDay: 1 });
    // The oldest due row was due 90 s before the query (the test's own run time comes on top).
    expect(figures.lagS).toBeGreaterThanOrEqual(90);
    expect(figures.lagS).toBeLessThan(3600);
  });

  it("read the last day's failed rows through the failed index, not the day's sent rows through the finished index", async () => {
    for (let i = 0; i < 20; i++) {
      await database.db.execute(
        sql`insert into delivery_outbox (kind, payload, status, run_at, finished_at)
            select 'figures-sent', '{}'::jsonb, 'sent', now() - interval '1 hour', now() - (n || ' seconds')::interval from generate_series(1, 100) n`,
      );
    }
    await database.db.execute(sql`analyze delivery_outbox`);
    const plan = await database.db.transaction(async (tx) => {
      // The tables are small: without this the planner may read them whole, which says nothing about the indexes.
      await tx.execute(sql`set local enable_seqscan = off`);
      const rows = await rowsOf<Record<string, unknown>>(tx, sql`explain ${outboxFiguresQuery()}`);
      return rows.map((row) => String(Object.values(row)[0])).join("\n");
    });
    expect(plan).toContain("delivery_outbox_failed_idx");
    expect(plan).not.toContain("delivery_outbox_finished_idx");
    expect((await outboxFigures(database.db)).failedLastDay).toBe(1);
  });

  it("the metrics port serves the outbox lag, waiting, retried and failed rows, and this process's deliveries by outcome", async () => {
    registerDeliveryHandler(defineDeliveryKind("figures-ok", z.unknown()), async () => {});
    registerDeliveryHandler(defineDeliveryKind("figures-bad", z.unknown()), async () => {
      throw new PermanentDeliveryError("refused");
    });
    const before = deliveryOutcomes();
    await insert("figures-ok", {});
    await insert("figures-bad", {});
    const worker = startOutboxWorker({ db: database.db, pollMs: 20 });
    try {
      await until(async () => {
        const [r] = await rowsOf<{ n: number }>(database.db, sql`select count(*)::int as n from delivery_outbox where kind in ('figures-ok', 'figures-bad') and status = 'pending'`);
        return Number(r.n) === 0;
      }, "both rows delivered or failed");
    } finally {
      await worker.stop();
    }
    const after = deliveryOutcomes();
    expect({ sent: after.sent - before.sent, failed: after.failed - before.failed }).toEqual({ sent: 1, failed: 1 });

    const metrics = createMetrics({ env: { metrics: { port: 0, host: "127.0.0.1" } } as never, build: { routes: {} } as never, log: createLogger("silent"), db: database.db });
    await metrics.start({ engine: { clientsCount: 0 } } as never);
    try {
      const text = await (await fetch(`http://127.0.0.1:${metrics.port()}/metrics`)).text();
      const value = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, "m").exec(text)?.[1]);
      expect(value("outbox_lag_seconds")).toBeGreaterThanOrEqual(90);
      expect(value("outbox_pending_rows")).toBe(3);
      expect(value("outbox_retrying_rows")).toBe(1);
      expect(value("outbox_failed_rows_last_day")).toBe(2);
      expect(text).toMatch(new RegExp(`^outbox_deliveries_total\\{outcome="sent"\\} ${after.sent}$`, "m"));
      expect(text).toMatch(new RegExp(`^outbox_deliveries_total\\{outcome="failed"\\} ${after.failed}$`, "m"));
    } finally {
      await metrics.close();
    }
  });
});
