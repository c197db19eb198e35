import { sql } from "drizzle-orm";
import { bigint, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";

/**
 * Everything delivered later (mail now; push and digests reuse it): a row written in the same
 * transaction as its cause, claimed by a worker with FOR UPDATE SKIP LOCKED and a lease
 * (features/outbox/outbox.server.ts). status: pending → sent | failed.
 */
export const deliveryOutbox = pgTable(
  "delivery_outbox",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    kind: text("kind").notNull(),
    payload: jsonb("payload").notNull(),
    // A repeated key is not queued twice (the unique index below ignores rows without one).
    dedupeKey: text("dedupe_key"),
    status: text("status").notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    runAt: timestamp("run_at", { withTimezone: true }).notNull().defaultNow(),
    // The lease of the worker that claimed the row; past it, another worker takes the row over.
    lockedUntil: timestamp("locked_until", { withTimezone: true }),
    lockedBy: text("locked_by"),
    lastError: text("last_error"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("delivery_outbox_dedupe_key").on(t.dedupeKey),
    index("delivery_outbox_due_idx").on(t.runAt).where(sql`status = 'pending'`),
    index("delivery_outbox_finished_idx").on(t.finishedAt).where(sql`finished_at is not null`),
    // The metrics count the last day's failed rows without reading the day's sent ones.
    index("delivery_outbox_failed_idx").on(t.finishedAt).where(sql`status = 'failed'`),
  ],
);

/**
 * Failed sign-ins per account (the address, lower-cased), whichever IP they come from: past the
 * limit the address waits a short, growing back-off — never a permanent lock a stranger could
 * put on a real user (features/users/sign-in-guard.server.ts).
 */
export const signInFailures = pgTable("sign_in_failures", {
  emailKey: text("email_key").primaryKey(),
  failures: integer("failures").notNull().default(0),
  lastFailureAt: timestamp("last_failure_at", { withTimezone: true }).notNull().defaultNow(),
  blockedUntil: timestamp("blocked_until", { withTimezone: true }),
  // Client IPs the failures came from (features/users/sign-in-guard.server.ts): the back-off holds
  // them, not a client that never failed for this address.
  failedIps: text("failed_ips").array().notNull().default(sql`'{}'::text[]`),
});
