import { sql } from "drizzle-orm";
import type { AppLoadContext } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf } from "#app/db/sql.server.ts";
import { seedCatalogue } from "#app/features/cards/catalogue.server.ts";
import {
  adjustCardCount,
  bulkSetCounts,
  collectionProgress,
  publicCollectionProgress,
  saveCollectionSettings,
  setCardCounts,
  setCards,
} from "#app/features/collection/collection.server.ts";
import { exportCollectionCsv, importCollectionCsv } from "#app/features/collection/collection-csv.server.ts";
import { CollectionError } from "#app/features/collection/errors.ts";
import { deleteAccount, exportAccountData } from "#app/features/users/account.server.ts";
import { describeAppError } from "#app/lib/errors.ts";
import { loadEnv, type Env } from "#app/lib/env.server.ts";
import { action as countsAction } from "#app/routes/api.collection.counts.ts";
import { loader as progressLoader } from "#app/routes/api.collection.progress.ts";
import { createUser } from "#tests/support/factories.ts";
import { createTestDatabase, type TestDatabase } from "#tests/support/test-db.ts";

let database: TestDatabase;
let db: TestDatabase["db"];
let env: Env;
let set: string;
let prints: { id: string; number: number | null; rarity: string }[];

beforeAll(async () => {
  database = await createTestDatabase();
  db = database.db;
  await seedCatalogue(db);
  env = loadEnv({ SITE_URL: "http://torepoke.test", BETTER_AUTH_SECRET: "s".repeat(40), LOG_LEVEL: "silent" });
  const [row] = await rowsOf<{ set_code: string }>(db, sql`select set_code from packs group by set_code order by min(sort_order) limit 1`);
  set = row!.set_code;
  prints = (await setCards(db, set)).map((c) => ({ id: c.id, number: c.number, rarity: c.rarity }));
});
afterAll(async () => {
  await database?.close();
});

async function refusal(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof CollectionError) return error.code;
    throw error;
  }
  throw new Error("not refused");
}

const countRows = (userId: string) => rowsOf<{ card_id: string; count: number }>(db, sql`select card_id, count from collection_cards where user_id = ${userId} order by card_id`);

describe("collection counts", () => {
  it("sets, adjusts, refuses counts past 0..99 with a code, and stores no row for 0", async () => {
    const u = await createUser(db);
    const [a, b] = prints;
    const first = await setCardCounts(db, u.id, [{ cardId: a.id, count: 3 }, { cardId: b.id, count: 1 }]);
    expect(first.previous).toEqual([{ cardId: a.id, count: 0 }, { cardId: b.id, count: 0 }]);
    expect(await adjustCardCount(db, u.id, a.id, -1)).toEqual({ previous: [{ cardId: a.id, count: 3 }], counts: [{ cardId: a.id, count: 2 }] });
    expect(await refusal(setCardCounts(db, u.id, [{ cardId: a.id, count: 100 }]))).toBe("count_out_of_range");
    expect(await refusal(setCardCounts(db, u.id, [{ cardId: a.id, count: -1 }]))).toBe("count_out_of_range");
    expect(await refusal(adjustCardCount(db, u.id, b.id, -2))).toBe("count_out_of_range");
    expect(await refusal(setCardCounts(db, u.id, [{ cardId: "no-such-card", count: 1 }]))).toBe("card_not_found");
    await setCardCounts(db, u.id, [{ cardId: b.id, count: 0 }]);
    expect(await countRows(u.id)).toEqual([{ card_id: a.id, count: 2 }]);
    // A queue flushed after many taps offline: 600 taps on two cards are two changes, the last count of each wins.
    const taps = Array.from({ length: 600 }, (_, i) => ({ cardId: i % 2 ? a.id : b.id, count: (i % 9) + 1 }));
    await setCardCounts(db, u.id, taps);
    expect(await countRows(u.id)).toEqual(expect.arrayContaining([{ card_id: a.id, count: (599 % 9) + 1 }, { card_id: b.id, count: (598 % 9) + 1 }]));
    expect(await refusal(setCardCounts(db, u.id, Array.from({ length: 501 }, (_, i) => ({ cardId: `card-${i}`, count: 1 }))))).toBe("too_many_changes");
  });

  it("bulk 1枚 fills only missing cards of the filter, 0に戻す empties it, and the previous counts undo each", async () => {
    const u = await createUser(db);
    const rarity = prints[0].rarity;
    const ofRarity = prints.filter((p) => p.rarity === rarity);
    await setCardCounts(db, u.id, [{ cardId: ofRarity[0].id, count: 4 }]);
    const one = await bulkSetCounts(db, u.id, { set, rarity }, "one");
    expect(one.counts.length).toBe(ofRarity.length - 1);
    const rows = await countRows(u.id);
    expect(rows.length).toBe(ofRarity.length);
    expect(rows.find((r) => r.card_id === ofRarity[0].id)?.count).toBe(4);
    // 元に戻す: the previous counts sent back.
    await setCardCounts(db, u.id, one.previous);
    expect(await countRows(u.id)).toEqual([{ card_id: ofRarity[0].id, count: 4 }]);
    const zero = await bulkSetCounts(db, u.id, { set, owned: "have" }, "zero");
    expect(await countRows(u.id)).toEqual([]);
    await setCardCounts(db, u.id, zero.previous);
    expect(await countRows(u.id)).toEqual([{ card_id: ofRarity[0].id, count: 4 }]);
  });

  it("progress per set, pack and rarity is owned/total, as the database's catalogue counts them", async () => {
    const u = await createUser(db);
    await setCardCounts(db, u.id, [{ cardId: prints[0].id, count: 2 }, { cardId: prints[1].id, count: 1 }]);
    const progress = await collectionProgress(db, u.id, set);
    const row = progress.sets.find((s) => s.key === set)!;
    expect(row).toMatchObject({ owned: 2, total: prints.length });
    expect(row.percent).toBe(Math.floor((200) / prints.length));
    expect(progress.sets.filter((s) => s.key !== set).every((s) => s.owned === 0)).toBe(true);
    const rarityTotal = progress.rarities.reduce((n, r) => n + r.total, 0);
    expect(rarityTotal).toBe(prints.length);
    expect(progress.rarities.reduce((n, r) => n + r.owned, 0)).toBe(2);
    expect(progress.packs.length).toBeGreaterThan(0);
    // Every pack's and set's total is what its links in the database list (listable prints only).
    const packTotals = await rowsOf<{ key: string; total: number }>(
      db,
      sql`select cp.pack_id as key, count(*)::int as total from card_packs cp join packs p on p.id = cp.pack_id join cards c on c.id = cp.card_id
          where p.set_code = ${set} and c.name <> '' and c.rarity <> '' group by cp.pack_id`,
    );
    expect(Object.fromEntries(progress.packs.map((p) => [p.key, p.total]))).toEqual(Object.fromEntries(packTotals.map((p) => [p.key, p.total])));
    const setTotals = await rowsOf<{ key: string; total: number }>(
      db,
      sql`select p.set_code as key, count(distinct cp.card_id)::int as total from card_packs cp join packs p on p.id = cp.pack_id join cards c on c.id = cp.card_id
          where c.name <> '' and c.rarity <> '' group by p.set_code`,
    );
    expect(Object.fromEntries(progress.sets.map((p) => [p.key, p.total]))).toEqual(Object.fromEntries(setTotals.map((p) => [p.key, p.total])));
  });
});

describe("collection CSV", () => {
  it("round-trips into another account, with a BOM and names for people", async () => {
    const a = await createUser(db);
    const b = await createUser(db);
    await setCardCounts(db, a.id, [{ cardId: prints[0].id, count: 3 }, { cardId: prints[2].id, count: 1 }]);
    const csv = await exportCollectionCsv(db, a.id);
    expect(csv.startsWith("\uFEFFset,number,name,rarity,count\r\n")).toBe(true);
    expect(await importCollectionCsv(db, b.id, new TextEncoder().encode(csv))).toEqual({ count: 2 });
    expect(await countRows(b.id)).toEqual(await countRows(a.id));
  });

  it("reads Shift_JIS as Excel saves it", async () => {
    const u = await createUser(db);
    // "セット,番号,枚数" headers and a row, in Shift_JIS bytes.
    const header = [0x83, 0x5a, 0x83, 0x62, 0x83, 0x67, 0x2c, 0x94, 0xd4, 0x8d, 0x86, 0x2c, 0x96, 0x87, 0x90, 0x94, 0x0d, 0x0a];
    const line = [...new TextEncoder().encode(`${set},${prints[1].number},2\r\n`)];
    expect(await importCollectionCsv(db, u.id, new Uint8Array([...header, ...line]))).toEqual({ count: 1 });
    expect(await countRows(u.id)).toEqual([{ card_id: prints[1].id, count: 2 }]);
  });

  it("is all or nothing and names the first bad line in Japanese", async () => {
    const u = await createUser(db);
    await setCardCounts(db, u.id, [{ cardId: prints[0].id, count: 1 }]);
    const csv = `set,number,count\n${set},${prints[0].number},5\n${set},99999,1\n${set},${prints[1].number},abc\n`;
    let error: unknown;
    try {
      await importCollectionCsv(db, u.id, new TextEncoder().encode(csv));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(CollectionError);
    const answer = describeAppError(error as CollectionError, "ja");
    expect(answer.code).toBe("csv_line_invalid");
    expect(answer.message).toBe(`CSVの3行目: セット「${set}」の番号 99999 のカードが見つかりません（何も読み込んでいません）`);
    expect(await countRows(u.id)).toEqual([{ card_id: prints[0].id, count: 1 }]);
    const bad = await refusal(importCollectionCsv(db, u.id, new TextEncoder().encode(`set,number,count\n${set},1,100\n`)));
    expect(bad).toBe("csv_line_invalid");
  });
});

describe("collection privacy and the account", () => {
  it("the public progress is shown only when chosen", async () => {
    const u = await createUser(db);
    await setCardCounts(db, u.id, [{ cardId: prints[0].id, count: 1 }]);
    expect(await publicCollectionProgress(db, u.id)).toBeNull();
    await saveCollectionSettings(db, u.id, { showProgress: true, useForTrades: false });
    const shown = await publicCollectionProgress(db, u.id);
    expect(shown?.find((r) => r.key === set)).toMatchObject({ owned: 1, total: prints.length });
  });

  it("is in the account export and deleted with the account", async () => {
    const u = await createUser(db);
    await setCardCounts(db, u.id, [{ cardId: prints[0].id, count: 7 }]);
    await saveCollectionSettings(db, u.id, { showProgress: true, useForTrades: true, keepCount: 2, wantMode: "wants" });
    const file = await exportAccountData(db, env, u.id);
    // The trade settings are the player's choices too: they travel with the export.
    expect(file.collection.settings).toEqual({ showProgress: true, useForTrades: true, keepCount: 2, tradeRarities: null, wantMode: "wants", wantSets: null });
    expect(file.collection.cards).toMatchObject([{ cardId: prints[0].id, count: 7, set }]);
    await db.execute(sql`insert into accounts (id, account_id, provider_id, user_id) values (${`acc-${u.id}`}, ${u.id}, 'line', ${u.id})`);
    const session = `s-${u.id}`;
    await db.execute(sql`insert into sessions (id, expires_at, token, user_id) values (${session}, now() + interval '1 day', ${`t-${u.id}`}, ${u.id})`);
    // A LINE-only account proves itself by a session signed in minutes ago.
    await deleteAccount(db, env, u.id, { recentSignInSession: session, locale: "ja" });
    expect(await countRows(u.id)).toEqual([]);
    expect(await rowsOf(db, sql`select 1 from collection_settings where user_id = ${u.id}`)).toEqual([]);
  });

  it("the APIs answer 401 JSON when signed out", async () => {
    const context = { db, env, cspNonce: "n" } as unknown as AppLoadContext;
    const post = await countsAction({ request: new Request("http://torepoke.test/api/collection/counts", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ changes: [{ cardId: prints[0].id, count: 1 }] }) }), context, params: {} } as never).catch((e: unknown) => e);
    expect((post as Response).status).toBe(401);
    expect(await (post as Response).json()).toMatchObject({ code: "login_required" });
    const get = await progressLoader({ request: new Request("http://torepoke.test/api/collection/progress"), context, params: {} } as never).catch((e: unknown) => e);
    expect((get as Response).status).toBe(401);
  });
});
