import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "#app/db/client.server.ts";
import { rowsOf } from "#app/db/sql.server.ts";
import { createTestDatabase, type TestDatabase } from "#tests/support/test-db.ts";

// `rowsOf(db, query, { prepared })` (docs/decisions/050): on PostgreSQL the statement is prepared
// once per connection under a name made of its label and its text; the rows are those an
// unprepared run answers, with the same types. PGlite runs it as any other query.

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.close();
});

const probe = (n: number) => sql`select ${n}::int as n, ${"トレポケ"}::text as word, '2026-12-07T10:00:00Z'::timestamptz as at, array[${n}, 2]::int[] as list`;

describe("a prepared statement", () => {
  it("answers the rows and types an unprepared run answers, on every call", async () => {
    const plain = await rowsOf<Record<string, unknown>>(database.db, probe(7));
    for (let i = 0; i < 8; i++) {
      expect(await rowsOf<Record<string, unknown>>(database.db, probe(7), { prepared: "probe" })).toEqual(plain);
    }
    expect(await rowsOf(database.db, probe(8), { prepared: "probe" })).toEqual([{ ...plain[0], n: 8, list: [8, 2] }]);
  });

  it("is kept by the connection under its label and its text's hash; another text gets another name", async () => {
    const names = await database.db.transaction(async (tx) => {
      await rowsOf(tx, probe(1), { prepared: "probe" });
      await rowsOf(tx, probe(1), { prepared: "probe" });
      await rowsOf(tx, sql`select ${1}::int as other`, { prepared: "probe" });
      return rowsOf<{ name: string; statement: string }>(tx, sql`select name, statement from pg_prepared_statements where name like 'probe%' order by statement`);
    });
    if (database.kind === "pglite") {
      expect(names).toEqual([]);
      return;
    }
    expect(names).toHaveLength(2);
    for (const { name } of names) expect(name).toMatch(/^probe_[A-Za-z0-9_-]{12}$/);
    expect(names[0].name).not.toBe(names[1].name);
  });

  it("fails like an unprepared statement and leaves the connection usable", async () => {
    const broken = sql`select 1 / ${0}::int as n`;
    // Drizzle wraps the database's error with the query; the cause is PostgreSQL's own.
    const refusal = { cause: expect.objectContaining({ message: expect.stringMatching(/division by zero/) }) };
    await expect(rowsOf(database.db, broken)).rejects.toMatchObject(refusal);
    await expect(rowsOf(database.db, broken, { prepared: "broken" })).rejects.toMatchObject(refusal);
    await expect(rowsOf(database.db, broken, { prepared: "broken" })).rejects.toMatchObject(refusal);
    expect(await rowsOf(database.db, probe(3), { prepared: "probe" })).toMatchObject([{ n: 3 }]);
  });

  it("refuses a label PostgreSQL would cut short", async () => {
    await expect(rowsOf(database.db, probe(1), { prepared: "a".repeat(41) })).rejects.toThrow(/label over 40/);
  });

  // A rolling deploy: the new release changes a column's type while this one has the statement prepared.
  it.skipIf(process.env.TEST_DB !== "postgres")("outlives a column whose type changed under it: named anew, run again outside a transaction", async () => {
    const one = await openDatabase({ kind: "postgres", url: database.url!, poolSize: 1 });
    try {
      await one.db.execute(sql`create table prepared_probe (x int)`);
      await one.db.execute(sql`insert into prepared_probe values (41)`);
      const read = () => rowsOf<{ x: number | string }>(one.db, sql`select x from prepared_probe`, { prepared: "probe_column" });
      expect(await read()).toEqual([{ x: 41 }]);
      await one.db.execute(sql`alter table prepared_probe alter column x type bigint`);
      // bigint comes back as text from node-postgres: the new plan's type.
      expect(await read()).toEqual([{ x: "41" }]);
      expect(await read()).toEqual([{ x: "41" }]);

      await one.db.execute(sql`alter table prepared_probe alter column x type int`);
      // In a transaction the refusal aborts it: it fails like any error, and the next call works.
      await expect(one.db.transaction((tx) => rowsOf(tx, sql`select x from prepared_probe`, { prepared: "probe_column" }))).rejects.toMatchObject({
        cause: expect.objectContaining({ code: "0A000" }),
      });
      expect(await read()).toEqual([{ x: 41 }]);
    } finally {
      await one.db.execute(sql`drop table if exists prepared_probe`);
      await one.close();
    }
  });
});
