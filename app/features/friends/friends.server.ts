import { sql, type SQL } from "drizzle-orm";
import type { Db } from "#app/db/client.server.ts";
import { friendApplications, friendPosts, packs, profiles } from "#app/db/schema/index.ts";
import { isUniqueViolation, rowsOf, type Queryable, type Tx } from "#app/db/sql.server.ts";
import type { Logger } from "#app/lib/logger.server.ts";
import { notices } from "#app/lib/notices.server.ts";
import { startSweep } from "#app/lib/sweep.server.ts";
import { databaseLimit } from "#app/lib/rate-limit.server.ts";
import { notBlockedFor } from "#app/features/blocks/blocks.server.ts";
import { rememberCatalogueList } from "#app/features/cards/card-index.server.ts";
import { responseRecords, type ResponseRecord } from "#app/features/users/response-record.server.ts";
import { FriendsError, type FriendsErrorCode } from "./errors";
import type { FriendBoardFilters, FriendPostInput } from "./friends.schema";
import {
  FRIEND_APPLICATIONS_PER_HOUR,
  FRIEND_BOARD_PAGE_SIZE,
  FRIEND_POST_TTL_HOURS,
  FRIEND_POSTS_PER_HOUR,
  FRIEND_RAISE_INTERVAL_HOURS,
  FRIEND_RAISES_PER_DAY,
  type FriendPurpose,
} from "./rules";

/**
 * フレンド募集 (docs/decisions/043-friend-board.md): one live post per player, 24 hours from posting
 * or raising; 上げる once every 3 hours; 申請しました once per post and player, which notifies the
 * poster with the applicant's friend ID. The friend ID a post shows is read from the poster's
 * profile when the board is read: a post never stores one. A post is listed while it is open and
 * unexpired, its poster is neither suspended nor deleted and still has a friend ID, and neither
 * side blocked the other.
 */

export { FriendsError };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const iso = (value: Date | string) => (value instanceof Date ? value : new Date(value)).toISOString();

const LIMITS = {
  post: { limiter: databaseLimit({ name: "friend-post", max: FRIEND_POSTS_PER_HOUR, window: "hour" }), error: "rate_limited_post" },
  raise: { limiter: databaseLimit({ name: "friend-raise", max: FRIEND_RAISES_PER_DAY, window: "day" }), error: "rate_limited_raise" },
  apply: { limiter: databaseLimit({ name: "friend-apply", max: FRIEND_APPLICATIONS_PER_HOUR, window: "hour" }), error: "rate_limited_apply" },
} as const satisfies Record<string, { limiter: ReturnType<typeof databaseLimit>; error: FriendsErrorCode }>;

/** Counts one action inside its transaction: past the limit, the error rolls both back. */
async function countAction(tx: Tx, userId: string, action: keyof typeof LIMITS): Promise<void> {
  const { limiter, error } = LIMITS[action];
  if (!(await limiter.take(userId, tx))) throw new FriendsError(error, { limit: limiter.limit.max });
}

/** `alias` is live: open and not past its expiry (expired is written lazily, as offers are). */
export function friendPostLiveNow(alias = "f"): SQL {
  const f = sql.raw(alias);
  return sql`(${f}.status = 'open' and ${f}.expires_at > now())`;
}

/** Whose posts the board lists: present, not suspended, with a friend ID to show. */
const posterListed = sql`(p.suspended_at is null and p.deleted_at is null and p.friend_id is not null)`;

/** Locks the player's profile (serialising their posts) and checks they may post. Answers their friend ID. */
async function lockPoster(tx: Tx, userId: string): Promise<string> {
  const [profile] = await rowsOf<{ friend_id: string | null; suspended_at: Date | null; deleted_at: Date | null }>(
    tx,
    sql`select friend_id, suspended_at, deleted_at from ${profiles} where user_id = ${userId} for update`,
  );
  if (!profile || profile.deleted_at) throw new FriendsError("forbidden");
  if (profile.suspended_at) throw new FriendsError("suspended");
  if (!profile.friend_id) throw new FriendsError("friend_id_required");
  return profile.friend_id;
}

/** The player's posts past their expiry are written expired, so the one-live-post index frees up. */
async function expireOwn(tx: Queryable, ownerId: string): Promise<void> {
  await tx.execute(
    sql`update ${friendPosts} set status = 'expired', updated_at = now()
        where owner_id = ${ownerId} and status = 'open' and expires_at <= now()`,
  );
}

/** Set codes the catalogue has (the list the form offers); any other refuses the post. */
async function checkSets(db: Db, setCodes: readonly string[]): Promise<void> {
  if (!setCodes.length) return;
  const known = new Set((await listFriendSets(db)).map((set) => set.code));
  if (setCodes.some((code) => !known.has(code))) throw new FriendsError("unknown_set");
}

async function touchActive(tx: Queryable, userId: string): Promise<void> {
  await tx.execute(sql`update ${profiles} set last_active_at = now() where user_id = ${userId}`);
}

/** Posts the player's one live post. */
export async function createFriendPost(db: Db, userId: string, input: FriendPostInput): Promise<{ id: string }> {
  await checkSets(db, input.setCodes);
  try {
    return await db.transaction(async (tx) => {
      await lockPoster(tx, userId);
      await expireOwn(tx, userId);
      const [live] = await rowsOf<{ id: string }>(tx, sql`select id from ${friendPosts} where owner_id = ${userId} and status = 'open'`);
      if (live) throw new FriendsError("already_posted");
      await countAction(tx, userId, "post");
      const [post] = await rowsOf<{ id: string }>(
        tx,
        sql`insert into ${friendPosts} (owner_id, purposes, comment, set_codes, expires_at)
            values (${userId}, ${toTextArray(input.purposes)}, ${input.comment}, ${toTextArray(input.setCodes)},
                    now() + make_interval(hours => ${FRIEND_POST_TTL_HOURS}))
            returning id`,
      );
      await touchActive(tx, userId);
      return { id: post.id };
    });
  } catch (error) {
    // Two posts at once: the database's one-live-post index refuses the second.
    if (isUniqueViolation(error)) throw new FriendsError("already_posted");
    throw error;
  }
}

const toTextArray = (values: readonly string[]): SQL =>
  values.length ? sql`array[${sql.join(values.map((v) => sql`${v}`), sql`, `)}]::text[]` : sql`'{}'::text[]`;

/** The player's own live post, locked: not found when they have none, forbidden when it is someone else's. */
async function lockOwnLivePost(tx: Tx, postId: string, userId: string): Promise<{ canRaise: boolean }> {
  if (!UUID.test(postId)) throw new FriendsError("not_found");
  const [post] = await rowsOf<{ owner_id: string; live: boolean; can_raise: boolean }>(
    tx,
    sql`select owner_id, ${friendPostLiveNow("friend_posts")} as live,
          (raised_at <= now() - make_interval(hours => ${FRIEND_RAISE_INTERVAL_HOURS})) as can_raise
        from ${friendPosts} where id = ${postId} for update`,
  );
  if (!post) throw new FriendsError("not_found");
  if (post.owner_id !== userId) throw new FriendsError("forbidden");
  if (!post.live) throw new FriendsError("not_found");
  return { canRaise: post.can_raise };
}

/** Edits the player's live post (purposes, comment, sets); its place and expiry stay. */
export async function editFriendPost(db: Db, userId: string, postId: string, input: FriendPostInput): Promise<void> {
  await checkSets(db, input.setCodes);
  await db.transaction(async (tx) => {
    await lockPoster(tx, userId);
    await lockOwnLivePost(tx, postId, userId);
    await countAction(tx, userId, "post");
    await tx.execute(
      sql`update ${friendPosts} set purposes = ${toTextArray(input.purposes)}, comment = ${input.comment},
            set_codes = ${toTextArray(input.setCodes)}, updated_at = now()
          where id = ${postId}`,
    );
    await touchActive(tx, userId);
  });
}

/** 上げる: back to the top with 24 hours from now, once every FRIEND_RAISE_INTERVAL_HOURS. */
export async function raiseFriendPost(db: Db, userId: string, postId: string): Promise<void> {
  await db.transaction(async (tx) => {
    await lockPoster(tx, userId);
    const { canRaise } = await lockOwnLivePost(tx, postId, userId);
    if (!canRaise) throw new FriendsError("raise_too_soon", { hours: FRIEND_RAISE_INTERVAL_HOURS });
    await countAction(tx, userId, "raise");
    await tx.execute(
      sql`update ${friendPosts} set raised_at = now(), expires_at = now() + make_interval(hours => ${FRIEND_POST_TTL_HOURS}), updated_at = now()
          where id = ${postId}`,
    );
    await touchActive(tx, userId);
  });
}

/** Closes the player's post (締め切る). A post already closed or expired is left as it is. */
export async function closeFriendPost(db: Db, userId: string, postId: string): Promise<void> {
  if (!UUID.test(postId)) throw new FriendsError("not_found");
  await db.transaction(async (tx) => {
    const [post] = await rowsOf<{ owner_id: string }>(tx, sql`select owner_id from ${friendPosts} where id = ${postId} for update`);
    if (!post) throw new FriendsError("not_found");
    if (post.owner_id !== userId) throw new FriendsError("forbidden");
    await tx.execute(sql`update ${friendPosts} set status = 'closed', updated_at = now() where id = ${postId} and status = 'open'`);
  });
}

/**
 * 申請しました: `userId` says they sent the poster a friend request in the game. Stored once per
 * post and player; the first time, the poster is notified with the applicant's name and friend ID.
 * A repeat answers `already: true` and neither counts nor notifies again.
 */
export async function applyToFriendPost(db: Db, userId: string, postId: string): Promise<{ already: boolean }> {
  if (!UUID.test(postId)) throw new FriendsError("not_found");
  return db.transaction(async (tx) => {
    const [applicant] = await rowsOf<{ friend_id: string | null; suspended_at: Date | null; deleted_at: Date | null }>(
      tx,
      sql`select friend_id, suspended_at, deleted_at from ${profiles} where user_id = ${userId}`,
    );
    if (!applicant || applicant.deleted_at) throw new FriendsError("forbidden");
    if (applicant.suspended_at) throw new FriendsError("suspended");
    // The poster accepts the request by the ID it came from: the applicant needs one.
    if (!applicant.friend_id) throw new FriendsError("friend_id_required");
    const [post] = await rowsOf<{ owner_id: string }>(
      tx,
      sql`select f.owner_id from ${friendPosts} f join ${profiles} p on p.user_id = f.owner_id
          where f.id = ${postId} and ${friendPostLiveNow()} and ${posterListed} and ${notBlockedFor(userId, "f.owner_id")}`,
    );
    if (!post) throw new FriendsError("not_found");
    if (post.owner_id === userId) throw new FriendsError("own_post");
    const [stored] = await rowsOf<{ post_id: string }>(tx, sql`select post_id from ${friendApplications} where post_id = ${postId} and applicant_id = ${userId}`);
    if (stored) return { already: true };
    await countAction(tx, userId, "apply");
    const inserted = await rowsOf<{ post_id: string }>(
      tx,
      sql`insert into ${friendApplications} (post_id, applicant_id) values (${postId}, ${userId})
          on conflict do nothing returning post_id`,
    );
    if (!inserted.length) return { already: true };
    await notices().friendApplication(tx, { postId, ownerId: post.owner_id, applicantId: userId, applicantFriendId: applicant.friend_id });
    await touchActive(tx, userId);
    return { already: false };
  });
}

// ---------------------------------------------------------------------------------------------
// Reading

export type FriendPostView = {
  id: string;
  ownerId: string;
  displayName: string;
  /** The poster's friend ID now (16 digits), from their profile. */
  friendId: string;
  purposes: FriendPurpose[];
  comment: string;
  sets: { code: string; nameJa: string; nameEn: string }[];
  /** Posted or last raised (ISO). */
  postedAt: string;
  expiresAt: string;
  lastActiveAt: string;
  record: ResponseRecord;
};

export type FriendBoardPage = { posts: FriendPostView[]; nextCursor: string | null };

type PostRow = {
  id: string;
  owner_id: string;
  display_name: string;
  friend_id: string;
  purposes: string[] | string;
  comment: string;
  set_codes: string[] | string;
  raised_at: Date | string;
  raise_key: string;
  expires_at: Date | string;
  last_active_at: Date | string;
};

const POST_COLUMNS = sql`f.id, f.owner_id, p.display_name, p.friend_id, f.purposes, f.comment, f.set_codes, f.raised_at,
  to_char(f.raised_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US') as raise_key, f.expires_at, p.last_active_at`;

// PGlite answers text[] as an array, pg may answer the literal: read both.
const textArray = (value: string[] | string): string[] =>
  Array.isArray(value) ? value : value.replace(/^\{|\}$/g, "").split(",").filter(Boolean).map((v) => v.replace(/^"|"$/g, ""));

const CURSOR = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6})\|([0-9a-f-]{36})$/i;

function encodeCursor(raiseKey: string, id: string): string {
  return Buffer.from(`${raiseKey}|${id}`, "utf8").toString("base64url");
}

function decodeCursor(cursor: string): { raiseKey: string; id: string } {
  const match = CURSOR.exec(Buffer.from(cursor, "base64url").toString("utf8"));
  if (!match || !UUID.test(match[2]) || Number.isNaN(Date.parse(`${match[1]}Z`))) throw new FriendsError("invalid_cursor");
  const time = new Date(`${match[1].slice(0, 23)}Z`);
  if (time.toISOString().slice(0, 19) !== match[1].slice(0, 19)) throw new FriendsError("invalid_cursor");
  return { raiseKey: match[1], id: match[2] };
}

type CatalogueSet = { code: string; nameJa: string; nameEn: string };

/** The sets a post may name, in the catalogue's order (newest set first); kept with the catalogue's lists. */
export function listFriendSets(db: Db): Promise<CatalogueSet[]> {
  return rememberCatalogueList(db, "friend-board-sets", () =>
    rowsOf<CatalogueSet>(
      db,
      sql`select set_code as code, min(set_name_ja) as "nameJa", min(set_name_en) as "nameEn" from ${packs}
          group by set_code order by max(release_date) desc, set_code desc`,
    ),
  );
}

async function toViews(db: Db, rows: readonly PostRow[]): Promise<FriendPostView[]> {
  if (!rows.length) return [];
  const [sets, records] = await Promise.all([listFriendSets(db), responseRecords(db, [...new Set(rows.map((r) => r.owner_id))])]);
  const names = new Map(sets.map((set) => [set.code, set]));
  return rows.map((r) => ({
    id: r.id,
    ownerId: r.owner_id,
    displayName: r.display_name,
    friendId: r.friend_id,
    purposes: textArray(r.purposes) as FriendPurpose[],
    comment: r.comment,
    sets: textArray(r.set_codes).map((code) => ({ code, nameJa: names.get(code)?.nameJa ?? code, nameEn: names.get(code)?.nameEn ?? code })),
    postedAt: iso(r.raised_at),
    expiresAt: iso(r.expires_at),
    lastActiveAt: iso(r.last_active_at),
    record: records.get(r.owner_id)!,
  }));
}

/**
 * The first `wanted` posts matching `where` (over `friend_posts f`) in board order whose poster is
 * listed, with the poster's columns. The posts are read alone, in batches down the board's index,
 * and their posters looked up by key: joined in one statement, the planner (with no or stale
 * statistics on profiles, as the embedded database keeps them) scanned every profile and sorted
 * every live post instead. Usually one batch; a further one only when posters were unlisted.
 */
type PostOnly = Omit<PostRow, "display_name" | "friend_id" | "last_active_at">;

async function listedInOrder(db: Db, where: SQL[], wanted: number): Promise<PostRow[]> {
  const batch = wanted + 10;
  const listed: PostRow[] = [];
  let after: SQL | null = null;
  for (;;) {
    const posts: PostOnly[] = await rowsOf<PostOnly>(
      db,
      sql`select f.id, f.owner_id, f.purposes, f.comment, f.set_codes, f.raised_at,
            to_char(f.raised_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US') as raise_key, f.expires_at
          from ${friendPosts} f where ${sql.join(after ? [...where, after] : where, sql` and `)}
          order by f.raised_at desc nulls last, f.id desc nulls last
          limit ${batch}`,
    );
    if (!posts.length) return listed;
    const owners = [...new Set(posts.map((p) => p.owner_id))];
    const posters = await rowsOf<{ user_id: string; display_name: string; friend_id: string; last_active_at: Date | string }>(
      db,
      sql`select p.user_id, p.display_name, p.friend_id, p.last_active_at from ${profiles} p
          where p.user_id in (${sql.join(owners.map((id) => sql`${id}`), sql`, `)}) and ${posterListed}`,
    );
    const byId = new Map(posters.map((p) => [p.user_id, p]));
    for (const post of posts) {
      const poster = byId.get(post.owner_id);
      if (!poster) continue;
      listed.push({ ...post, display_name: poster.display_name, friend_id: poster.friend_id, last_active_at: poster.last_active_at });
      if (listed.length === wanted) return listed;
    }
    if (posts.length < batch) return listed;
    const last: PostOnly = posts[posts.length - 1];
    after = sql`(f.raised_at, f.id) < ((${last.raise_key}::timestamp at time zone 'UTC'), ${last.id}::uuid)`;
  }
}

/**
 * The board: live posts the viewer may see, last raised first, FRIEND_BOARD_PAGE_SIZE a page with
 * a cursor of the exact raised_at and id of the last post shown; filters by purpose and by set.
 */
export async function listFriendBoard(
  db: Db,
  options: { viewerId?: string | null; filters?: FriendBoardFilters; cursor?: string | null; limit?: number } = {},
): Promise<FriendBoardPage> {
  const limit = Math.min(Math.max(options.limit ?? FRIEND_BOARD_PAGE_SIZE, 1), 50);
  const f = options.filters ?? {};
  const where: SQL[] = [friendPostLiveNow(), notBlockedFor(options.viewerId, "f.owner_id")];
  if (f.purpose) where.push(sql`${f.purpose} = any(f.purposes)`);
  if (f.set) where.push(sql`${f.set} = any(f.set_codes)`);
  if (options.cursor) {
    const cursor = decodeCursor(options.cursor);
    where.push(sql`(f.raised_at, f.id) < ((${cursor.raiseKey}::timestamp at time zone 'UTC'), ${cursor.id}::uuid)`);
  }
  const rows = await listedInOrder(db, where, limit + 1);
  const page = rows.slice(0, limit);
  return {
    posts: await toViews(db, page),
    nextCursor: rows.length > limit ? encodeCursor(page[page.length - 1].raise_key, page[page.length - 1].id) : null,
  };
}

export type OwnFriendPost = FriendPostView & {
  /** When 上げる is allowed again (ISO); now or earlier means now. */
  raisableAt: string;
  applicants: { userId: string; displayName: string; friendId: string | null; at: string }[];
};

/** The player's live post with who said they applied (newest first), or null. */
export async function ownFriendPost(db: Db, userId: string): Promise<OwnFriendPost | null> {
  const [row] = await rowsOf<PostRow & { raisable_at: Date | string }>(
    db,
    sql`select ${POST_COLUMNS}, f.raised_at + make_interval(hours => ${FRIEND_RAISE_INTERVAL_HOURS}) as raisable_at
        from ${friendPosts} f join ${profiles} p on p.user_id = f.owner_id
        where f.owner_id = ${userId} and ${friendPostLiveNow()}`,
  );
  if (!row) return null;
  const [view] = await toViews(db, [{ ...row, friend_id: row.friend_id ?? "" }]);
  // Applicants the poster blocked, or who blocked them, or who left, are not listed.
  const applicants = await rowsOf<{ user_id: string; display_name: string; friend_id: string | null; created_at: Date | string }>(
    db,
    sql`select a.applicant_id as user_id, p.display_name, p.friend_id, a.created_at
        from ${friendApplications} a join ${profiles} p on p.user_id = a.applicant_id
        where a.post_id = ${row.id} and p.deleted_at is null and p.suspended_at is null
          and ${notBlockedFor(userId, "a.applicant_id")}
        order by a.created_at desc`,
  );
  return {
    ...view,
    raisableAt: iso(row.raisable_at),
    applicants: applicants.map((a) => ({ userId: a.user_id, displayName: a.display_name, friendId: a.friend_id, at: iso(a.created_at) })),
  };
}

/** The posts `userId` said they applied to, among the given ones (the board shows 申請済み). */
export async function appliedPostIds(db: Queryable, userId: string, postIds: readonly string[]): Promise<Set<string>> {
  if (!postIds.length) return new Set();
  const rows = await rowsOf<{ post_id: string }>(
    db,
    sql`select post_id from ${friendApplications} where applicant_id = ${userId}
        and post_id in (${sql.join(postIds.map((id) => sql`${id}::uuid`), sql`, `)})`,
  );
  return new Set(rows.map((r) => r.post_id));
}

/** The sitemap's lastmod for /friends: when the newest live post was posted or raised, or null. */
export async function friendBoardLastModified(db: Queryable): Promise<Date | null> {
  const [row] = await rowsOf<{ at: Date | string | null }>(
    db,
    sql`select max(f.raised_at) as at from ${friendPosts} f join ${profiles} p on p.user_id = f.owner_id
        where ${friendPostLiveNow()} and ${posterListed}`,
  );
  return row?.at ? new Date(row.at) : null;
}

/** For a report: the live post as `reporterId` may see it, with its poster, or null. */
export async function reportableFriendPost(db: Db, postId: string, reporterId: string): Promise<{ ownerId: string } | null> {
  if (!UUID.test(postId)) return null;
  const [post] = await rowsOf<{ owner_id: string }>(
    db,
    sql`select f.owner_id from ${friendPosts} f join ${profiles} p on p.user_id = f.owner_id
        where f.id = ${postId} and ${friendPostLiveNow()} and ${posterListed} and ${notBlockedFor(reporterId, "f.owner_id")}`,
  );
  return post ? { ownerId: post.owner_id } : null;
}

/**
 * The sitemap's entry for /friends: the page while it lists a post (an empty board is noindex),
 * last changed when the newest live post was posted or raised; expired posts count for nothing.
 */
export const friendsSitemapSource = {
  name: "friends",
  count: async (db: Db) => ((await friendBoardLastModified(db)) ? 1 : 0),
  async *urls(db: Db) {
    const lastmod = await friendBoardLastModified(db);
    if (lastmod) yield { path: "/friends", lastmod };
  },
};

/** Overdue posts written expired per run, so one run stays a short statement. */
const EXPIRY_BATCH = 5_000;

/**
 * Writes open posts past their expiry as expired (at most EXPIRY_BATCH a run). Every read asks the
 * clock anyway; this keeps the board's partial index to live posts, so a board with many expired
 * posts (and a filter few live posts match) does not walk them. Any instance may run it.
 */
export async function expireFriendPosts(db: Queryable): Promise<number> {
  const rows = await rowsOf<{ id: string }>(
    db,
    sql`update ${friendPosts} set status = 'expired', updated_at = now()
        where id in (select id from ${friendPosts} where status = 'open' and expires_at <= now() order by expires_at limit ${EXPIRY_BATCH})
          and status = 'open'
        returning id`,
  );
  return rows.length;
}

export function startFriendPostExpiry(db: Db, log: Logger): { stop(): void } {
  return startSweep({ run: () => expireFriendPosts(db), firstAfterMs: 15_000, everyMs: 5 * 60_000, log, did: "friend posts expired", failed: "friend post expiry failed" });
}
