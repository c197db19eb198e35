// `npm run db:seed-trades -- [count]`: fills the trade board with realistic offers for load tests
// and demos (default 100,000), in the database of DATABASE_URL or else the PGlite in DATA_DIR.
// Offers follow the game's rules (tradeable rarities, same-rarity pairs, 1–2 copies) and a
// realistic mix: popular cards appear far more often, most offers are open, some expired,
// closed or completed. Deterministic for a given seed.
import { randomUUID } from "node:crypto";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { sql } from "drizzle-orm";
import { openConfiguredDatabase, type Db } from "#app/db/client.server.ts";
import { hasCatalogue, seedCatalogue } from "#app/features/cards/catalogue.server.ts";
import { OFFER_TTL_HOURS } from "#app/features/trades/rules.ts";
import { cardTradeability } from "#app/features/trades/trade-rules.server.ts";
import { loadEnv } from "#app/lib/env.server.ts";

/** mulberry32: a small deterministic PRNG, so two runs seed the same board (bench:capacity draws from it too). */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function rowsOf<T>(db: Db, query: ReturnType<typeof sql>): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

async function insertRows(db: Db, table: string, columns: string[], rows: unknown[][], batch: number): Promise<void> {
  for (let i = 0; i < rows.length; i += batch) {
    const chunk = rows.slice(i, i + batch);
    const values = sql.join(
      chunk.map((row) => sql`(${sql.join(row.map((v) => sql`${v}`), sql`, `)})`),
      sql`, `,
    );
    await db.execute(sql`insert into ${sql.identifier(table)} (${sql.raw(columns.map((c) => `"${c}"`).join(", "))}) values ${values}`);
  }
}

export type SeedTradesResult = {
  users: number;
  offers: number;
  offerCards: number;
  /** Per rarity, the cards most often given and wanted in open offers, most popular first. */
  popular: Record<string, { give: string[]; want: string[] }>;
};

/**
 * Inserts `offers` offers by `offers / 4` new users. Card popularity is skewed (the square of a
 * uniform draw over a shuffled list), like a real board where a few chase cards dominate.
 */
export async function seedTradeOffers(db: Db, options: { offers?: number; seed?: number } = {}): Promise<SeedTradesResult> {
  const total = options.offers ?? 100_000;
  const random = prng(options.seed ?? 20251121);
  const pick = <T>(list: T[], skew = 2) => list[Math.floor(list.length * random() ** skew)];

  const catalogue = await rowsOf<{ id: string; rarity: string }>(db, sql`select c.id, c.rarity from cards c order by c.id`);
  // The cards the trade rules allow now: what the board itself would accept.
  const states = await cardTradeability(db, catalogue.map((c) => c.id));
  const tradeable = catalogue.filter((c) => states.get(c.id)?.tradeable);
  const byRarity = new Map<string, string[]>();
  for (const card of tradeable) {
    const list = byRarity.get(card.rarity) ?? [];
    list.push(card.id);
    byRarity.set(card.rarity, list);
  }
  for (const list of byRarity.values()) {
    for (let i = list.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [list[i], list[j]] = [list[j], list[i]];
    }
  }
  // Players trade rare cards far more than commons.
  const rarityWeights: [string, number][] = [
    ["◆◆◆◆", 30],
    ["☆", 25],
    ["◆◆◆", 20],
    ["✦", 8],
    ["✦✦", 5],
    ["◆◆", 7],
    ["◆", 5],
  ].filter(([r]) => (byRarity.get(r as string)?.length ?? 0) >= 6) as [string, number][];
  const weightSum = rarityWeights.reduce((s, [, w]) => s + w, 0);
  const pickRarity = () => {
    let x = random() * weightSum;
    for (const [rarity, w] of rarityWeights) if ((x -= w) < 0) return rarity;
    return rarityWeights[0][0];
  };

  const userCount = Math.max(1, Math.ceil(total / 4));
  const runTag = randomUUID().slice(0, 8);
  const userRows: unknown[][] = [];
  const profileRows: unknown[][] = [];
  const now = Date.now();
  for (let i = 0; i < userCount; i++) {
    const id = `seed_${runTag}_${i}`;
    userRows.push([id, `トレーナー${i}`, `${id}@seed.torepoke.invalid`]);
    const lastActive = new Date(now - Math.floor(random() ** 2 * 14 * 86_400_000));
    profileRows.push([id, `トレーナー${i}`, String(1e15 + i).padStart(16, "0"), Math.floor(random() ** 3 * 40), lastActive]);
  }

  const offerRows: unknown[][] = [];
  const cardRows: unknown[][] = [];
  const giveCount = new Map<string, number>();
  const wantCount = new Map<string, number>();
  const rarityOf = new Map(tradeable.map((c) => [c.id, c.rarity]));
  for (let i = 0; i < total; i++) {
    const id = randomUUID();
    const owner = `seed_${runTag}_${i % userCount}`;
    const roll = random();
    const status = roll < 0.7 ? "open" : roll < 0.85 ? "expired" : roll < 0.95 ? "closed" : "completed";
    // Open offers were bumped within their 72 h window; the others are older.
    const ageMs = status === "open" ? random() * OFFER_TTL_HOURS * 3_600_000 : (OFFER_TTL_HOURS + random() * 24 * 30) * 3_600_000;
    const bumped = new Date(now - ageMs);
    const expires = new Date(bumped.getTime() + OFFER_TTL_HOURS * 3_600_000);
    // Expired rows stay 'open' in storage on purpose: expiry is read from expires_at.
    offerRows.push([id, owner, status === "expired" ? "open" : status, "", bumped, expires, bumped, bumped]);

    const rarity = pickRarity();
    const pool = byRarity.get(rarity)!;
    const chosen = new Set<string>();
    const side = (n: number, name: "give" | "want", counter: Map<string, number>) => {
      for (let k = 0; k < n; k++) {
        const card = k === 0 || random() < 0.8 ? pick(pool) : pick(byRarity.get(pickRarity())!);
        if (chosen.has(card)) continue;
        chosen.add(card);
        cardRows.push([id, card, name, random() < 0.15 ? 2 : 1]);
        if (status === "open") counter.set(card, (counter.get(card) ?? 0) + 1);
      }
    };
    side(1 + Math.floor(random() ** 2 * 3), "give", giveCount);
    side(1 + Math.floor(random() ** 2 * 3), "want", wantCount);
  }

  await db.transaction(async (tx) => {
    const t = tx as unknown as Db;
    await insertRows(t, "users", ["id", "name", "email"], userRows, 2000);
    await insertRows(t, "profiles", ["user_id", "display_name", "friend_id", "completed_trades", "last_active_at"], profileRows, 2000);
    await insertRows(t, "trade_offers", ["id", "owner_id", "status", "comment", "bumped_at", "expires_at", "created_at", "updated_at"], offerRows, 2000);
    await insertRows(t, "trade_offer_cards", ["offer_id", "card_id", "side", "count"], cardRows, 4000);
  });
  // Steady state for load tests: statistics for the planner and an up-to-date visibility map
  // (index-only scans), as autovacuum would leave a live database.
  await db.execute(sql`vacuum analyze users, profiles, trade_offers, trade_offer_cards`);
  const popular: SeedTradesResult["popular"] = {};
  const top = (counter: Map<string, number>, rarity: string) =>
    [...counter.entries()]
      .filter(([card]) => rarityOf.get(card) === rarity)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 5)
      .map(([card]) => card);
  for (const rarity of byRarity.keys()) popular[rarity] = { give: top(giveCount, rarity), want: top(wantCount, rarity) };
  return { users: userCount, offers: total, offerCards: cardRows.length, popular };
}

async function main() {
  const count = Number(process.argv[2] ?? 100_000);
  if (!Number.isInteger(count) || count < 1) throw new Error("usage: npm run db:seed-trades -- [count]");
  const database = await openConfiguredDatabase(loadEnv());
  try {
    if (!(await hasCatalogue(database.db))) await seedCatalogue(database.db);
    const started = Date.now();
    const result = await seedTradeOffers(database.db, { offers: count });
    console.log(JSON.stringify({ ...result, ms: Date.now() - started }));
  } finally {
    await database.close();
  }
}

const isMain = process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href;
if (isMain) await main();
