import type { SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { describe, expect, it } from "vitest";
import type { Db } from "#app/db/client.server.ts";
import { createEventBuffer, MAX_BATCH_BYTES, MAX_BUFFER_BYTES, type EventRow } from "./buffer.server";
import { publicPathOf, referrerHostOf, utmOf } from "./classify.server";

/** A database that takes every INSERT and keeps its JSON parameter (the batch as written). */
function recordingDb() {
  const dialect = new PgDialect();
  const batches: string[] = [];
  const db = {
    execute: async (query: SQL) => {
      batches.push(dialect.sqlToQuery(query).params[0] as string);
      return { rows: [] };
    },
  } as unknown as Db;
  return { db, batches };
}

/**
 * The largest row the collector makes from one hit, by its own rules: the longest path it keeps
 * (of a path of Japanese characters, percent-encoded), three UTM values of more emoji than it
 * keeps, and a referrer host longer than it keeps.
 */
function largestRow(i: number): EventRow {
  const emoji = "😀".repeat(150);
  const url = new URL(`/cards/${"あ".repeat(600)}?utm_source=${emoji}&utm_medium=${emoji}&utm_campaign=${emoji}`, "http://x");
  const utm = utmOf(url.search);
  return {
    kind: "pageview",
    ts: new Date(),
    visitor: BigInt(i),
    path: publicPathOf(url.pathname, "card"),
    pageKind: "card",
    referrerHost: referrerHostOf(`https://${"r".repeat(300)}.example/`, "torepoke.test"),
    channel: "campaign",
    utmSource: utm.source,
    utmMedium: utm.medium,
    utmCampaign: utm.campaign,
    browser: "Chrome",
    os: "Windows",
    device: "desktop",
    screen: "laptop",
    lang: "ja",
  };
}

/** A page view as most are: a short path, a search engine's referrer, no UTM. */
function typicalRow(i: number): EventRow {
  return { kind: "pageview", ts: new Date(), visitor: BigInt(i) * 7919n, path: `/articles/tier-list-${i % 50}`, pageKind: "article", referrerHost: "google.com", channel: "search", browser: "Chrome", os: "Android", device: "mobile", screen: "mobile", lang: "ja" };
}

describe("event buffer memory", () => {
  it("holds at most MAX_BUFFER_BYTES under a flood of the largest rows, counts the rest as dropped, and writes in bounded batches", async () => {
    const { db, batches } = recordingDb();
    const buffer = createEventBuffer(db, { maxRows: 100_000, flushMs: 3_600_000 });
    const sample = largestRow(0);
    // UTF-16 characters of the row's own text, two bytes each in the heap: the least a row can cost.
    const textBytes = 2 * [sample.path, sample.referrerHost, sample.utmSource, sample.utmMedium, sample.utmCampaign].join("").length;
    expect(textBytes).toBeGreaterThan(2_000);

    const pushed = 20_000;
    let accepted = 0;
    for (let i = 0; i < pushed; i++) if (buffer.push(largestRow(i))) accepted++;
    const full = buffer.stats();
    expect(full.bufferedBytes).toBeLessThanOrEqual(MAX_BUFFER_BYTES);
    // Full (another row would not have fitted), and honest: every held row is counted at no less than its own text.
    expect(full.bufferedBytes).toBeGreaterThan(MAX_BUFFER_BYTES - 2 * textBytes);
    expect(full.bufferedBytes).toBeGreaterThanOrEqual(full.buffered * textBytes);
    expect(full.buffered).toBe(accepted);
    expect(full.dropped).toBe(pushed - accepted);
    expect(full.dropped).toBeGreaterThan(0);

    await buffer.close();
    expect(buffer.stats()).toMatchObject({ buffered: 0, bufferedBytes: 0, written: accepted, dropped: pushed - accepted });
    const rows = batches.map((batch) => JSON.parse(batch) as unknown[]);
    expect(rows.reduce((n, batch) => n + batch.length, 0)).toBe(accepted);
    // Each INSERT's parameter (two bytes a character: the emoji) stays within the batch bound.
    for (const batch of batches) expect(batch.length * 2).toBeLessThanOrEqual(MAX_BATCH_BYTES);
  });

  it("keeps as many typical rows as ANALYTICS_BUFFER_MAX allows at its maximum: the byte bound refuses only what is large", async () => {
    const { db } = recordingDb();
    const buffer = createEventBuffer(db, { maxRows: 100_000, flushMs: 3_600_000 });
    let accepted = 0;
    for (let i = 0; i < 100_001; i++) if (buffer.push(typicalRow(i))) accepted++;
    expect(accepted).toBe(100_000);
    expect(buffer.stats()).toMatchObject({ buffered: 100_000, dropped: 1 });
    expect(buffer.stats().bufferedBytes).toBeLessThan(MAX_BUFFER_BYTES);
    await buffer.close();
    expect(buffer.stats()).toMatchObject({ buffered: 0, written: 100_000 });
  });
});
