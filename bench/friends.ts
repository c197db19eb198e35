// `npm run bench:friends`: フレンド募集 at 100,000 posts, most of them expired (docs/decisions/043):
// 95,000 written expired, 1,000 overdue but not yet swept, 4,000 live, by 20,000 players. Measures at
// 20 connections /friends past the page cache (it is not in it) signed out and signed in, the
// purpose filter few posts match, against /terms of the same run and server (signed out past the
// page cache, and signed in); and posting: createFriendPost for 1,000 players at 20 at a time
// against the seeded table, p50/p99 in the bench process (the service, not HTTP, because each
// player may post 10 times an hour). PostgreSQL (a fresh database on BENCH_DATABASE_URL /
// TEST_DATABASE_URL, dropped after) and PGlite. Needs a build (`npm run build`). Bounded:
// BENCH_SECONDS (default 10) per case; BENCH_ONLY=postgres skips PGlite.
import { sql } from "drizzle-orm";
import { migrateDatabase } from "../app/db/client.server";
import { seedCatalogue } from "../app/features/cards/catalogue.server";
import { FriendPostInputSchema } from "../app/features/friends/friends.schema";
import { createFriendPost } from "../app/features/friends/friends.server";
import { startServer } from "../tests/support/server";
import { CACHE_MISS, measure, pgliteTarget, postgresTarget, printTable, type BenchTarget, type Measurement } from "./support";

const duration = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 20);
const PLAYERS = 20_000;
const EXPIRED = 95_000;
const OVERDUE = 1_000;
const LIVE = 4_000;
const POSTINGS = 1_000;
const POSTING_CONCURRENCY = 20;

const targets: BenchTarget[] = [];
const postgres = await postgresTarget();
if (postgres) targets.push(postgres);
if (process.env.BENCH_ONLY !== "postgres") {
  targets.push(pgliteTarget("friends"));
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/** Seeds players and posts in a few statements, then times posting through the service. */
async function prepare(target: BenchTarget): Promise<void> {
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
    await db.execute(sql`analyze friend_posts`);
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
    console.log(`[${target.label}] posting (createFriendPost, ${POSTINGS} players, ${POSTING_CONCURRENCY} at a time): p50 ${percentile(times, 50).toFixed(1)} ms, p99 ${percentile(times, 99).toFixed(1)} ms`);
  } finally {
    await database.close();
  }
}

async function signIn(url: string): Promise<string> {
  const up = await fetch(`${url}/api/auth/sign-up/email`, {
    method: "POST",
    headers: { origin: url, "content-type": "application/json" },
    body: JSON.stringify({ email: "bench-friends@example.com", password: "bench-friends-pass-7", name: "ベンチ" }),
  });
  if (!up.ok) throw new Error(`sign-up answered ${up.status}`);
  const cookie = up.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
  const profile = await fetch(`${url}/profile`, {
    method: "POST",
    headers: { origin: url, cookie, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ displayName: "ベンチ", friendId: "9999888877776666" }).toString(),
    redirect: "manual",
  });
  if (profile.status >= 400) throw new Error(`profile answered ${profile.status}`);
  return cookie;
}

try {
  for (const target of targets) {
    await prepare(target);
    const server = await startServer({ ...target.env, LOG_LEVEL: "warn" });
    try {
      const cookie = await signIn(server.url);
      const cases: [string, string, Record<string, string>][] = [
        ["/terms signed out (miss)", "/terms", CACHE_MISS],
        ["/friends signed out", "/friends", CACHE_MISS],
        ["/friends?purpose=other out", "/friends?purpose=other", CACHE_MISS],
        ["/terms signed in", "/terms", { cookie }],
        ["/friends signed in", "/friends", { cookie }],
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
