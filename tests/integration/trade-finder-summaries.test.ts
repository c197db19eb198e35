import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf } from "#app/db/sql.server.ts";
import { blockUser } from "#app/features/blocks/blocks.server.ts";
import { seedCatalogue } from "#app/features/cards/catalogue.server.ts";
import { invalidateCardIndex } from "#app/features/cards/card-index.server.ts";
import { importCardsFromCsv } from "#app/features/cards/import.server.ts";
import { adjustCardCount, bulkSetCounts, saveCollectionSettings, setCardCounts } from "#app/features/collection/collection.server.ts";
import { importCollectionCsv } from "#app/features/collection/collection-csv.server.ts";
import { addWantedCards, removeWantedCard } from "#app/features/notifications/want-list.server.ts";
import { findCandidateRows, tradeCandidatesUsing, type CandidatesResult } from "#app/features/trade-candidates/trade-candidates.server.ts";
import { createUser } from "#tests/support/factories.ts";
import { createTestDatabase, type TestDatabase } from "#tests/support/test-db.ts";
import { referenceFinder } from "#tests/support/trade-finder-reference.ts";

/**
 * The collection summaries (docs/decisions/049) against the statement they replaced: on random
 * collections, want lists and settings, changed through every path that writes them, the
 * finder reading one summary row per player answers exactly what the full statement answered.
 */

let database: TestDatabase;
let db: TestDatabase["db"];
type Card = { id: string; rarity: string; set_code: string; number: number };
let pool: Card[];
let sets: string[];

/** A small seeded generator, so a failure can be replayed. */
function generator(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(list: readonly T[]) => list[int(list.length)];
  const some = <T>(list: readonly T[], p: number) => list.filter(() => next() < p);
  return { next, int, pick, some };
}

const SEED = Number(process.env.FINDER_SEED ?? 20261207);
const random = generator(SEED);

beforeAll(async () => {
  database = await createTestDatabase();
  db = database.db;
  await seedCatalogue(db);
  // Cards of four rarities, enough of each that a player has more than the 12 shown per rarity.
  pool = [];
  for (const [rarity, n] of [["◆", 45], ["◆◆", 35], ["◆◆◆", 20], ["☆", 10]] as const) {
    pool.push(
      ...(await rowsOf<Card>(
        db,
        sql`select c.id, c.rarity, c.set_code, c.number from cards c
            where c.rarity = ${rarity} and c.name <> '' and c.set_code is not null and c.number is not null
              and exists (select 1 from card_packs cp where cp.card_id = c.id and cp.pack_id <> 'shining-high')
            order by c.id limit ${n}`,
      )),
    );
  }
  sets = [...new Set(pool.map((c) => c.set_code))];
}, 120_000);
afterAll(async () => {
  await database?.close();
});

const DAY = 24 * 60 * 60 * 1000;
const MODES = ["missing", "wants", "both"] as const;

/** One random player: profile, settings, counts and want list, written by raw statements and by the services. */
async function randomPlayer(base: number, i: number) {
  // Some share a last activity (the tie goes to the user id), some are too old to count.
  const lastActiveAt = new Date(base - (i % 7 === 0 ? 3 * 60 * 1000 : random.int(16 * DAY)));
  const user = await createUser(db, { lastActiveAt });
  const counts = random.some(pool, 0.45).map((c) => ({ cardId: c.id, count: 1 + random.int(4) }));
  if (i % 3 === 0) {
    if (counts.length) await setCardCounts(db, user.id, counts);
  } else if (counts.length) {
    // Written round the services: the triggers keep the summary whoever writes.
    await db.execute(sql`insert into collection_cards (user_id, card_id, count)
        values ${sql.join(counts.map((c) => sql`(${user.id}, ${c.cardId}, ${c.count})`), sql`, `)}`);
  }
  const wanted = random.some(pool, 0.12);
  if (wanted.length) {
    // owned_when_wanted from 0 to 2: some wants are already met by the counts above.
    await db.execute(sql`insert into wanted_cards (user_id, card_id, owned_when_wanted)
        values ${sql.join(wanted.map((c) => sql`(${user.id}, ${c.id}, ${random.int(3)})`), sql`, `)}`);
  }
  await saveCollectionSettings(db, user.id, {
    showProgress: false,
    useForTrades: random.next() < 0.9,
    keepCount: random.int(3),
    wantMode: random.pick(MODES),
    tradeRarities: random.next() < 0.6 ? null : random.some(["◆", "◆◆", "◆◆◆", "☆"], 0.6),
    wantSets: random.next() < 0.6 ? null : random.some(sets, 0.6),
  });
  return user.id;
}

/** Random changes through every path that writes a collection, a want list or the settings. */
async function randomChanges(players: string[]) {
  for (const userId of random.some(players, 0.5)) {
    const card = random.pick(pool);
    switch (random.int(11)) {
      case 0:
        await setCardCounts(db, userId, [{ cardId: card.id, count: random.int(5) }]);
        break;
      case 1:
        await adjustCardCount(db, userId, card.id, 1).catch(() => undefined);
        break;
      case 2:
        await bulkSetCounts(db, userId, { set: card.set_code, pack: null, rarity: card.rarity, type: null, owned: null, terms: [] }, random.next() < 0.5 ? "one" : "zero");
        break;
      case 3: {
        const lines = random.some(pool, 0.2).map((c) => `${c.set_code},${c.number},${random.int(4)}`);
        if (lines.length) await importCollectionCsv(db, userId, new TextEncoder().encode(["set,number,count", ...lines].join("\n")));
        break;
      }
      case 4:
        await db.execute(sql`update collection_cards set count = least(99, count + 1) where user_id = ${userId}`);
        break;
      case 5:
        await db.execute(sql`delete from collection_cards where user_id = ${userId} and card_id = ${card.id}`);
        break;
      case 6:
        await addWantedCards(db, userId, [card.id]).catch(() => undefined);
        break;
      case 7:
        await removeWantedCard(db, userId, card.id);
        break;
      case 8:
        await saveCollectionSettings(db, userId, { showProgress: false, useForTrades: true, keepCount: random.int(3) });
        break;
      case 9:
        await saveCollectionSettings(db, userId, { showProgress: false, useForTrades: true, wantMode: random.pick(MODES), tradeRarities: random.next() < 0.5 ? null : ["◆", "◆◆"] });
        break;
      default:
        await db.execute(sql`update wanted_cards set owned_when_wanted = ${random.int(3)} where user_id = ${userId}`);
    }
  }
}

/** Every bit of every summary against the rows it is derived from (the rule's own function). */
async function summariesAgreeWithRows() {
  const expected = await rowsOf<{ user_id: string; bit: number; state: number }>(
    db,
    sql`select p.user_id, c.trade_bit as bit,
               collection_card_state(coalesce(cc.count, 0), coalesce(st.keep_count, 1), wc.owned_when_wanted) as state
        from (select user_id, card_id from collection_cards union select user_id, card_id from wanted_cards) p
        join cards c on c.id = p.card_id
        left join collection_cards cc on cc.user_id = p.user_id and cc.card_id = p.card_id
        left join wanted_cards wc on wc.user_id = p.user_id and wc.card_id = p.card_id
        left join collection_settings st on st.user_id = p.user_id`,
  );
  const stored = await rowsOf<{ user_id: string; owned: Uint8Array; spare: Uint8Array; wanted: Uint8Array }>(db, sql`select user_id, owned, spare, wanted from collection_summaries`);
  const bitsOf = (bytes: Uint8Array) => {
    const on: number[] = [];
    for (let i = 0; i < bytes.length * 8; i++) if (bytes[i >> 3] & (1 << (i & 7))) on.push(i);
    return on;
  };
  const want = new Map<string, { owned: number[]; spare: number[]; wanted: number[] }>();
  for (const row of expected) {
    const entry = want.get(row.user_id) ?? { owned: [], spare: [], wanted: [] };
    if (row.state & 1) entry.owned.push(row.bit);
    if (row.state & 2) entry.spare.push(row.bit);
    if (row.state & 4) entry.wanted.push(row.bit);
    want.set(row.user_id, entry);
  }
  const sorted = (list: number[]) => [...list].sort((a, b) => a - b);
  const got = new Map(stored.map((row) => [row.user_id, { owned: bitsOf(row.owned), spare: bitsOf(row.spare), wanted: bitsOf(row.wanted) }]));
  for (const userId of new Set([...want.keys(), ...got.keys()])) {
    const w = want.get(userId) ?? { owned: [], spare: [], wanted: [] };
    const g = got.get(userId) ?? { owned: [], spare: [], wanted: [] };
    expect({ userId, owned: g.owned, spare: g.spare, wanted: g.wanted }).toEqual({ userId, owned: sorted(w.owned), spare: sorted(w.spare), wanted: sorted(w.wanted) });
  }
}

async function bothFinders(userId: string, options: { onlyPartners?: string[]; wanting?: string[] } = {}): Promise<[CandidatesResult, CandidatesResult]> {
  return [await tradeCandidatesUsing(db, userId, findCandidateRows, options), await tradeCandidatesUsing(db, userId, referenceFinder(), options)];
}

describe("collection summaries: the finder against the full statement", () => {
  it("finds exactly the same candidates and pairs on random data, through changes of every kind", async () => {
    const base = Date.now();
    const players: string[] = [];
    for (let i = 0; i < 120; i++) players.push(await randomPlayer(base, i));
    // Blocks both ways, a suspension and a deleted profile leave the scan.
    await blockUser(db, players[0], players[5]);
    await blockUser(db, players[7], players[1]);
    await db.execute(sql`update profiles set suspended_at = now() where user_id = ${players[11]}`);
    await db.execute(sql`update profiles set deleted_at = now() where user_id = ${players[13]}`);
    const me = players.slice(0, 5);
    let compared = 0;
    let longest = 0;
    let widest = 0;
    for (let round = 0; round < 3; round++) {
      if (round) await randomChanges(players);
      await summariesAgreeWithRows();
      for (const userId of me) {
        const [summaries, statement] = await bothFinders(userId);
        expect(summaries).toEqual(statement);
        compared += summaries.candidates.length;
        widest = Math.max(widest, summaries.candidates.length);
        longest = Math.max(longest, ...summaries.candidates.map((c) => c.pairCount));
        // One player (a friend-board post) and a deck's missing cards.
        const partners = random.some(players, 0.1);
        const [one, oneStatement] = await bothFinders(userId, { onlyPartners: partners });
        expect(one).toEqual(oneStatement);
        const wanting = random.some(pool, 0.3).map((c) => c.id);
        const [deck, deckStatement] = await bothFinders(userId, { wanting });
        expect(deck).toEqual(deckStatement);
      }
    }
    // The comparison meant something: full lists, and more pairs than are shown per rarity.
    expect(compared).toBeGreaterThan(100);
    expect(widest).toBe(30);
    expect(longest).toBeGreaterThan(12);
  }, 600_000);

  it("keeps the bits of a card added to the catalogue later, and of a want met, renewed and removed", async () => {
    const [owner, seeker] = [await createUser(db), await createUser(db)];
    const [card] = pool;
    // A new card of the catalogue: its bit is past the end of every summary written before.
    await db.execute(sql`insert into cards (id, set_code, number, name, name_en, rarity) values ('test-new-card', ${card.set_code}, 9999, '新しいカード', 'New card', ${card.rarity})`);
    await db.execute(sql`insert into card_packs (card_id, pack_id) select 'test-new-card', pack_id from card_packs where card_id = ${card.id} limit 1`);
    invalidateCardIndex(db);
    const [{ bit, top }] = await rowsOf<{ bit: number; top: number }>(db, sql`select trade_bit as bit, (select max(trade_bit) from cards) as top from cards where id = 'test-new-card'`);
    expect(bit).toBe(top);
    await setCardCounts(db, owner.id, [{ cardId: "test-new-card", count: 3 }]);
    await addWantedCards(db, seeker.id, [card.id]);
    await summariesAgreeWithRows();
    // The want is met when the collection holds more copies than when it was wanted, and stands again when they go.
    await setCardCounts(db, seeker.id, [{ cardId: card.id, count: 1 }]);
    await summariesAgreeWithRows();
    await addWantedCards(db, seeker.id, [card.id]);
    await summariesAgreeWithRows();
    await setCardCounts(db, seeker.id, [{ cardId: card.id, count: 0 }]);
    await removeWantedCard(db, seeker.id, card.id);
    await summariesAgreeWithRows();
    const [row] = await rowsOf<{ owned: Uint8Array }>(db, sql`select owned from collection_summaries where user_id = ${owner.id}`);
    expect(row.owned.length * 8).toBeGreaterThan(bit);
    expect(row.owned[bit >> 3] & (1 << (bit & 7))).not.toBe(0);
  });
});

describe.runIf(process.env.TEST_DB === "postgres")("collection summaries under concurrent writes (PostgreSQL)", () => {
  it("a statement rebuilding a player waits for a tap in progress and keeps its card", async () => {
    const player = await createUser(db);
    const [tapCard] = pool;
    let committed = false;
    // A tap holds its transaction open; a bulk write of 70 cards (the whole-player rebuild) starts meanwhile.
    const tap = db.transaction(async (tx) => {
      await tx.execute(sql`insert into collection_cards (user_id, card_id, count) values (${player.id}, ${tapCard.id}, 3)`);
      await new Promise((resolve) => setTimeout(resolve, 400));
      committed = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const bulk = db.execute(
      sql`insert into collection_cards (user_id, card_id, count)
          select ${player.id}, c.id, 1 from cards c where c.id <> ${tapCard.id} order by c.id limit 70`,
    );
    await Promise.all([tap, bulk]);
    expect(committed).toBe(true);
    await summariesAgreeWithRows();
  });
});

describe("one rarity for every card-match rule", () => {
  it("stores the old spelling ?? as ☆☆ (an import writes ☆☆, the database refuses ??), so トレード候補, 何でも可 and the board compare the same value", async () => {
    const refused = await db.execute(sql`insert into cards (id, name, rarity) values ('test-old-spelling', '旧表記', '??')`).then(
      () => "stored",
      (error: { message?: string; cause?: { message?: string } }) => `${error.message} ${error.cause?.message ?? ""}`,
    );
    expect(refused).toMatch(/cards_rarity_not_old_spelling/);
    await importCardsFromCsv(db, { title: "palkia", csvData: "name,rarity,imageUrl\n旧表記のテストカード,??,\n" });
    const rows = await rowsOf<{ rarity: string }>(db, sql`select rarity from cards where name = '旧表記のテストカード'`);
    expect(rows.map((r) => r.rarity)).toEqual(["☆☆"]);
  });
});
