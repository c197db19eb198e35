// `npm run bench:friends`: フレンド募集 at 100,000 posts, most of them expired (docs/decisions/043):
// 95,000 written expired, 1,000 overdue but not yet swept, 4,000 live, by 20,000 players. Measures at
// 20 connections /friends past the page cache (it is not in it) signed out and signed in, the
// purpose filter few posts match, against /terms of the same run and server (signed out past the
// page cache, and signed in); and posting: createFriendPost for 1,000 players at 20 at a time
// against the seeded table, p50/p99 in the bench process (the service, not HTTP, because each
// player may post 10 times an hour). PostgreSQL (a fresh database on BENCH_DATABASE_URL /
// TEST_DATABASE_URL, dropped after) and PGlite. The live posters keep a collection used for
// trades (COLLECTION_CARDS prints each, some spare), so a reader who keeps one too sees a trade
// count per post: measured as a page ("/friends + collection", the count kept per reader and page)
// and in process, cold (tradeCandidateCounts for the first page's posters, kept results forgotten).
// Needs a build (`npm run build`). Bounded: BENCH_SECONDS (default 10) per case; BENCH_ONLY=postgres
// skips PGlite.
import { sql } from "drizzle-orm";
import { migrateDatabase } from "#app/db/client.server.ts";
import { rowsOf } from "#app/db/sql.server.ts";
import { seedCatalogue } from "#app/features/cards/catalogue.server.ts";
import { FriendPostInputSchema } from "#app/features/friends/friends.schema.ts";
import { createFriendPost, listFriendBoard } from "#app/features/friends/friends.server.ts";
import { forgetTradeCandidates, tradeCandidateCounts } from "#app/features/trade-candidates/trade-candidates.server.ts";
import { startServer } from "#tests/support/server.ts";
import { CACHE_MISS, measure, pgliteTarget, postgresTarget, printTable, type BenchTarget, type Measurement } from "./support";

const duration = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 20);
const PLAYERS = 20_000;
const EXPIRED = 95_000;
const OVERDUE = 1_000;
const LIVE = 4_000;
const POSTINGS = 1_000;
const POSTING_CONCURRENCY = 20;
const COLLECTION_CARDS = 60;
/** The reader who keeps a collection: bf_1 (an overdue poster, so no live post of their own). */
const READER = "bf_1";

const targets: BenchTarget[] = [];
const postgres = await postgresTarget();
if (postgres) targets.push(postgres);
if (process.env.BENCH_ONLY !== "postgres") {
  targets.push(pgliteTarget("friends"));
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/** Seeds players and posts in a few statements, then times posting through the service. */
async function prepare(target: BenchTarget): Promise<string[]> {
  const database = await target.open();
  try {
    await migrateDatabase(database);
    await seedCatalogue(database.db);
    const db = database.db;
    const t = Date.now();
    await db.execute(sql`insert into users (id, name, email) select 'bf_' || i, 'フレンド' || i, 'bf' || i || '@example.com' from generate_series(1, ${PLAYERS}) i`);
    await db.execute(
      sql`insert into profiles (user_id, display_name, friend_id, last_active_at)
          select 'bf_' || i, 'フレンド' || i, lpad((1000000000000000 + i)::text, 16, '0'), now() - make_interval(mins => i % 5000)
          from generate_series(1, ${PLAYERS}) i`,
    );
    const purposes = sql`(case i % 4 when 0 then array['trade'] when 1 then array['challenge','battle'] when 2 then array['trade','other'] else array['battle'] end)::text[]`;
    const sets = sql`(select coalesce(array_agg(set_code), '{}'::text[]) from (select distinct set_code from packs order by set_code limit 2) s)`;
    // Expired posts, written so by the sweep: 1 to 30 days old.
    await db.execute(
      sql`insert into friend_posts (owner_id, status, purposes, comment, set_codes, raised_at, expires_at, created_at)
          select 'bf_' || (1 + i % ${PLAYERS}), 'expired', ${purposes}, '毎日ログインしています', ${sets},
                 now() - make_interval(hours => 25 + i % 700), now() - make_interval(hours => 1 + i % 700), now() - make_interval(hours => 25 + i % 700)
          from generate_series(1, ${EXPIRED}) i`,
    );
    // Overdue posts the sweep has not reached yet (still 'open'), each its player's one open post.
    await db.execute(
      sql`insert into friend_posts (owner_id, purposes, comment, raised_at, expires_at)
          select 'bf_' || i, ${purposes}, '期限切れ間近', now() - make_interval(hours => 30), now() - make_interval(hours => 6)
          from generate_series(1, ${OVERDUE}) i`,
    );
    await db.execute(
      sql`insert into friend_posts (owner_id, purposes, comment, set_codes, raised_at, expires_at)
          select 'bf_' || (${OVERDUE} + i), ${purposes}, 'よろしくお願いします', ${sets},
                 now() - make_interval(mins => i % 1400), now() - make_interval(mins => i % 1400) + interval '24 hours'
          from generate_series(1, ${LIVE}) i`,
    );
    // Live posters (and those who post below) keep COLLECTION_CARDS prints each (every third one
    // spare), used for trades, wanting what they miss; the reader owns 2 of the first 300 prints
    // and wants the rest.
    await db.execute(
      sql`insert into collection_settings (user_id, use_for_trades, want_mode)
          select 'bf_' || i, true, 'missing' from generate_series(${OVERDUE + 1}::int, ${OVERDUE + LIVE + POSTINGS}::int) i
          union all select ${READER}, true, 'missing'`,
    );
    await db.execute(
      sql`with printed as (select id, row_number() over (order by id) as n, count(*) over () as total from cards)
          insert into collection_cards (user_id, card_id, count)
          select 'bf_' || i, p.id, case when k % 3 = 0 then 2 else 1 end
          from generate_series(${OVERDUE + 1}::int, ${OVERDUE + LIVE + POSTINGS}::int) i cross join generate_series(0, ${COLLECTION_CARDS - 1}::int) k
          join printed p on p.n = 1 + ((i * 37 + k * 11) % p.total)
          on conflict do nothing`,
    );
    await db.execute(sql`insert into collection_cards (user_id, card_id, count) select ${READER}, id, 2 from cards order by id limit 300`);
    await db.execute(sql`analyze friend_posts`);
    await db.execute(sql`analyze collection_cards`);
    console.log(`[${target.label}] seeded ${PLAYERS} players and ${EXPIRED + OVERDUE + LIVE} posts (${LIVE} live) in ${((Date.now() - t) / 1000).toFixed(1)} s`);

    // Posting: players without a live post, POSTING_CONCURRENCY at a time.
    const input = FriendPostInputSchema.parse({ purposes: ["trade", "battle"], comment: "ベンチから募集します" });
    const posters = Array.from({ length: POSTINGS }, (_, i) => `bf_${OVERDUE + LIVE + 1 + i}`);
    const times: number[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: POSTING_CONCURRENCY }, async () => {
        while (next < posters.length) {
          const userId = posters[next++];
          const start = performance.now();
          await createFriendPost(db, userId, input);
          times.push(performance.now() - start);
        }
      }),
    );
    times.sort((a, b) => a - b);
    const firstPage = await listFriendBoard(db, { viewerId: READER, filters: {} });
    const cold: number[] = [];
    let counted = 0;
    for (let i = 0; i < 3; i++) {
      forgetTradeCandidates();
      const start = performance.now();
      counted = (await tradeCandidateCounts(db, READER, firstPage.posts.map((p) => p.ownerId))).size;
      cold.push(performance.now() - start);
    }
    cold.sort((a, b) => a - b);
    console.log(`[${target.label}] trade counts for the first page's ${firstPage.posts.length} posters, cold: ${cold[1].toFixed(1)} ms median of 3 (${counted} of them candidates)`);
    console.log(`[${target.label}] posting (createFriendPost, ${POSTINGS} players, ${POSTING_CONCURRENCY} at a time): p50 ${percentile(times, 50).toFixed(1)} ms, p99 ${percentile(times, 99).toFixed(1)} ms`);
    return (await rowsOf<{ id: string }>(db, sql`select id from cards order by id limit 300`)).map((r) => r.id);
  } finally {
    await database.close();
  }
}

async function signIn(url: string, email = "bench-friends@example.com", friendId = "9999888877776666"): Promise<string> {
  const up = await fetch(`${url}/api/auth/sign-up/email`, {
    method: "POST",
    headers: { origin: url, "content-type": "application/json" },
    body: JSON.stringify({ email, password: "bench-friends-pass-7", name: "ベンチ" }),
  });
  if (!up.ok) throw new Error(`sign-up answered ${up.status}`);
  const cookie = up.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
  const profile = await fetch(`${url}/profile`, {
    method: "POST",
    headers: { origin: url, cookie, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ displayName: "ベンチ", friendId }).toString(),
    redirect: "manual",
  });
  if (profile.status >= 400) throw new Error(`profile answered ${profile.status}`);
  return cookie;
}

/** The signed-in player keeps a collection as the reader bf_1 does, through the collection's API. */
async function keepCollection(url: string, cookie: string, cardIds: string[]): Promise<void> {
  const headers = { origin: url, cookie, "content-type": "application/json" };
  const counts = await fetch(`${url}/api/collection/counts`, { method: "POST", headers, body: JSON.stringify({ changes: cardIds.map((cardId) => ({ cardId, count: 2 })) }) });
  if (!counts.ok) throw new Error(`collection counts answered ${counts.status}`);
  const settings = await fetch(`${url}/api/collection/settings`, { method: "PUT", headers, body: JSON.stringify({ showProgress: false, useForTrades: true, wantMode: "missing" }) });
  if (!settings.ok) throw new Error(`collection settings answered ${settings.status}`);
}

try {
  for (const target of targets) {
    const readerCards = await prepare(target);
    const server = await startServer({ ...target.env, LOG_LEVEL: "warn" });
    try {
      const cookie = await signIn(server.url);
      const collector = await signIn(server.url, "bench-friends-collector@example.com", "9999888877775555");
      await keepCollection(server.url, collector, readerCards);
      const cases: [string, string, Record<string, string>][] = [
        ["/terms signed out (miss)", "/terms", CACHE_MISS],
        ["/friends signed out", "/friends", CACHE_MISS],
        ["/friends?purpose=other out", "/friends?purpose=other", CACHE_MISS],
        ["/terms signed in", "/terms", { cookie }],
        ["/friends signed in", "/friends", { cookie }],
        ["/friends + collection", "/friends", { cookie: collector }],
      ];
      for (const [, pathname, headers] of cases) await measure("warm-up", `${server.url}${pathname}`, { duration: 1, connections: 2, headers });
      const rows: Measurement[] = [];
      for (const [name, pathname, headers] of cases) rows.push(await measure(`${name} (${target.label})`, `${server.url}${pathname}`, { duration, connections, headers }));
      printTable(`フレンド募集 on ${target.label} — ${EXPIRED + OVERDUE + LIVE + POSTINGS} posts (${LIVE + POSTINGS} live), ${connections} connections, ${duration} s per case, ratios vs /terms signed out`, rows, rows[0]);
      printTable(`signed in, ratios vs /terms signed in (${target.label})`, rows.slice(3), rows[3]);
    } finally {
      await server.stop();
    }
  }
} finally {
  for (const target of targets) await target.cleanup();
}
