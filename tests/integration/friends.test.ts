import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { friendApplications, friendPosts, notifications, packs, profiles, reports } from "#app/db/schema/index.ts";
import { blockUser } from "#app/features/blocks/blocks.server.ts";
import { seedCatalogue } from "#app/features/cards/catalogue.server.ts";
import {
  applyToFriendPost,
  closeFriendPost,
  createFriendPost,
  editFriendPost,
  expireFriendPosts,
  friendBoardLastModified,
  listFriendBoard,
  ownFriendPost,
  raiseFriendPost,
} from "#app/features/friends/friends.server.ts";
import { FriendPostInputSchema } from "#app/features/friends/friends.schema.ts";
import { FRIEND_APPLICATIONS_PER_HOUR, FRIEND_POSTS_PER_HOUR, FRIEND_RAISES_PER_DAY } from "#app/features/friends/rules.ts";
import { listReports, reportFriendPost, resolveReport } from "#app/features/moderation/moderation.server.ts";
import { getNotificationForDelivery } from "#app/features/notifications/notifications.server.ts";
import { notificationText } from "#app/features/notifications/components/notification-text.ts";
import { saveCollectionSettings, setCardCounts } from "#app/features/collection/collection.server.ts";
import { friendsPage } from "#app/pages/friends-page.server.ts";
import { catalogueCards, createUser } from "#tests/support/factories.ts";
import { createTestDatabase, type TestDatabase } from "#tests/support/test-db.ts";

let database: TestDatabase;
let db: TestDatabase["db"];
let setCode: string;

beforeAll(async () => {
  database = await createTestDatabase();
  db = database.db;
  await seedCatalogue(db);
  [{ setCode }] = await db.select({ setCode: packs.setCode }).from(packs).limit(1);
});
afterAll(async () => {
  await database?.close();
});

const input = (fields: Record<string, unknown> = {}) => FriendPostInputSchema.parse({ purposes: ["trade"], comment: "よろしくお願いします", ...fields });

async function rejects(promise: Promise<unknown>, code: string) {
  await expect(promise).rejects.toMatchObject({ code });
}

/** Moves a post's clock back by `hours` (posted, raised and expiry alike), as if that much time had passed. */
async function age(postId: string, hours: number) {
  await db.execute(
    sql`update friend_posts set raised_at = raised_at - make_interval(hours => ${hours}), expires_at = expires_at - make_interval(hours => ${hours}),
          created_at = created_at - make_interval(hours => ${hours}) where id = ${postId}`,
  );
}

const boardIds = async (viewerId?: string, filters = {}) => (await listFriendBoard(db, { viewerId, filters, limit: 50 })).posts.map((p) => p.id);

describe("friend board: posting", () => {
  it("needs a friend ID on the profile and refuses suspended players", async () => {
    const noId = await createUser(db, { friendId: null });
    await rejects(createFriendPost(db, noId.id, input()), "friend_id_required");
    const suspended = await createUser(db);
    await db.update(profiles).set({ suspendedAt: new Date() }).where(eq(profiles.userId, suspended.id));
    await rejects(createFriendPost(db, suspended.id, input()), "suspended");
    expect(await db.select().from(friendPosts).where(sql`owner_id in (${noId.id}, ${suspended.id})`)).toEqual([]);
  });

  it("keeps one live post per player; a closed or expired one makes room for the next", async () => {
    const a = await createUser(db);
    const first = await createFriendPost(db, a.id, input());
    await rejects(createFriendPost(db, a.id, input()), "already_posted");
    // Two at once: the database's index refuses the second, not a read-then-write.
    const both = await Promise.allSettled([createFriendPost(db, (await createUser(db)).id, input()), createFriendPost(db, a.id, input())]);
    expect(both[1]).toMatchObject({ status: "rejected", reason: { code: "already_posted" } });
    await closeFriendPost(db, a.id, first.id);
    const second = await createFriendPost(db, a.id, input());
    await age(second.id, 25);
    const third = await createFriendPost(db, a.id, input({ purposes: ["battle", "challenge"] }));
    const rows = await db.select({ id: friendPosts.id, status: friendPosts.status }).from(friendPosts).where(eq(friendPosts.ownerId, a.id));
    expect(new Map(rows.map((r) => [r.id, r.status]))).toEqual(
      new Map([
        [first.id, "closed"],
        [second.id, "expired"],
        [third.id, "open"],
      ]),
    );
  });

  it("checks purposes, the 100-character comment under the text rules, and the sets against the catalogue", async () => {
    expect(FriendPostInputSchema.safeParse({ purposes: [], comment: "" }).error?.issues[0].message).toBe("errorPurposeRequired");
    expect(FriendPostInputSchema.safeParse({ purposes: ["trade"], comment: "あ".repeat(101) }).error?.issues[0].message).toBe("errorCommentTooLong");
    expect(FriendPostInputSchema.safeParse({ purposes: ["trade"], comment: "a\u0000b" }).success).toBe(false);
    expect(FriendPostInputSchema.parse({ purposes: ["trade"], comment: ` ${"あ".repeat(100)} ` }).comment).toHaveLength(100);
    const a = await createUser(db);
    await rejects(createFriendPost(db, a.id, input({ setCodes: ["NOPE"] })), "unknown_set");
    const { id } = await createFriendPost(db, a.id, input({ setCodes: [setCode] }));
    const [post] = (await listFriendBoard(db, { filters: { set: setCode }, limit: 50 })).posts.filter((p) => p.id === id);
    expect(post.sets.map((s) => s.code)).toEqual([setCode]);
  });

  it("shows the profile's current friend ID, never one stored with the post", async () => {
    const a = await createUser(db, { friendId: "1111222233334444" });
    const { id } = await createFriendPost(db, a.id, input());
    await db.update(profiles).set({ friendId: "5555666677778888" }).where(eq(profiles.userId, a.id));
    const post = (await listFriendBoard(db, { limit: 50 })).posts.find((p) => p.id === id);
    expect(post?.friendId).toBe("5555666677778888");
    // Removing the friend ID takes the post off the board: there is nothing to show.
    await db.update(profiles).set({ friendId: null }).where(eq(profiles.userId, a.id));
    expect(await boardIds()).not.toContain(id);
  });

  it("edits, lists newest (or last raised) first, filters by purpose, and expires after 24 hours", async () => {
    const a = await createUser(db);
    const b = await createUser(db);
    const older = await createFriendPost(db, a.id, input({ purposes: ["battle"] }));
    await age(older.id, 2);
    const newer = await createFriendPost(db, b.id, input({ purposes: ["trade"] }));
    const ids = await boardIds();
    expect(ids.indexOf(newer.id)).toBeLessThan(ids.indexOf(older.id));
    expect(await boardIds(undefined, { purpose: "battle" })).toContain(older.id);
    expect(await boardIds(undefined, { purpose: "battle" })).not.toContain(newer.id);
    await editFriendPost(db, a.id, older.id, input({ purposes: ["trade", "other"], comment: "変更しました" }));
    const edited = (await listFriendBoard(db, { filters: { purpose: "other" }, limit: 50 })).posts.find((p) => p.id === older.id);
    expect(edited).toMatchObject({ comment: "変更しました", purposes: ["trade", "other"] });
    await rejects(editFriendPost(db, b.id, older.id, input()), "forbidden");
    await age(older.id, 22);
    expect(await boardIds()).not.toContain(older.id);
    expect(await ownFriendPost(db, a.id)).toBeNull();
    await rejects(editFriendPost(db, a.id, older.id, input()), "not_found");
  });

  it("pages with a cursor, each post once", async () => {
    const made: string[] = [];
    for (let i = 0; i < 5; i++) made.push((await createFriendPost(db, (await createUser(db)).id, input({ purposes: ["other"], comment: `page ${i}` }))).id);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page = await listFriendBoard(db, { filters: { purpose: "other" }, cursor, limit: 2 });
      seen.push(...page.posts.map((p) => p.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toEqual(expect.arrayContaining(made));
    await rejects(listFriendBoard(db, { cursor: "bm90IGEgY3Vyc29y" }), "invalid_cursor");
  });
});

describe("friend board: raising", () => {
  it("raises only after 3 hours, to the top with a new 24 hours", async () => {
    const a = await createUser(db);
    const { id } = await createFriendPost(db, a.id, input());
    await rejects(raiseFriendPost(db, a.id, id), "raise_too_soon");
    await age(id, 3);
    const other = await createFriendPost(db, (await createUser(db)).id, input());
    expect((await boardIds()).indexOf(other.id)).toBeLessThan((await boardIds()).indexOf(id));
    await raiseFriendPost(db, a.id, id);
    expect((await boardIds()).indexOf(id)).toBeLessThan((await boardIds()).indexOf(other.id));
    const [row] = await db.select({ hours: sql<number>`extract(epoch from expires_at - now()) / 3600` }).from(friendPosts).where(eq(friendPosts.id, id));
    expect(Number(row.hours)).toBeGreaterThan(23.9);
    await rejects(raiseFriendPost(db, a.id, id), "raise_too_soon");
    await rejects(raiseFriendPost(db, (await createUser(db)).id, id), "forbidden");
  });

  it(`allows ${FRIEND_RAISES_PER_DAY} raises a day`, async () => {
    const a = await createUser(db);
    const { id } = await createFriendPost(db, a.id, input());
    for (let i = 0; i < FRIEND_RAISES_PER_DAY; i++) {
      await age(id, 3);
      await raiseFriendPost(db, a.id, id);
    }
    await age(id, 3);
    await rejects(raiseFriendPost(db, a.id, id), "rate_limited_raise");
  });
});

describe("friend board: limits", () => {
  it(`allows ${FRIEND_POSTS_PER_HOUR} posts and edits an hour; the refused one writes nothing`, async () => {
    const a = await createUser(db);
    const { id } = await createFriendPost(db, a.id, input());
    for (let i = 1; i < FRIEND_POSTS_PER_HOUR; i++) await editFriendPost(db, a.id, id, input({ comment: `edit ${i}` }));
    await rejects(editFriendPost(db, a.id, id, input({ comment: "one too many" })), "rate_limited_post");
    const [row] = await db.select({ comment: friendPosts.comment }).from(friendPosts).where(eq(friendPosts.id, id));
    expect(row.comment).toBe(`edit ${FRIEND_POSTS_PER_HOUR - 1}`);
  });

  it(`allows ${FRIEND_APPLICATIONS_PER_HOUR} 申請しました an hour`, async () => {
    const applicant = await createUser(db);
    const posts: string[] = [];
    for (let i = 0; i <= FRIEND_APPLICATIONS_PER_HOUR; i++) posts.push((await createFriendPost(db, (await createUser(db)).id, input())).id);
    for (const id of posts.slice(0, FRIEND_APPLICATIONS_PER_HOUR)) expect(await applyToFriendPost(db, applicant.id, id)).toEqual({ already: false });
    await rejects(applyToFriendPost(db, applicant.id, posts[FRIEND_APPLICATIONS_PER_HOUR]), "rate_limited_apply");
    // A repeat of one already stored is not counted and still answers.
    expect(await applyToFriendPost(db, applicant.id, posts[0])).toEqual({ already: true });
    expect(await db.select().from(friendApplications).where(eq(friendApplications.postId, posts[FRIEND_APPLICATIONS_PER_HOUR]))).toEqual([]);
  });
});

describe("friend board: who sees what", () => {
  it("hides posts both ways across a block, and refuses 申請しました across it", async () => {
    const poster = await createUser(db);
    const blocker = await createUser(db);
    const blocked = await createUser(db);
    const bystander = await createUser(db);
    const { id } = await createFriendPost(db, poster.id, input());
    await blockUser(db, blocker.id, poster.id);
    await blockUser(db, poster.id, blocked.id);
    expect(await boardIds(blocker.id)).not.toContain(id);
    expect(await boardIds(blocked.id)).not.toContain(id);
    expect(await boardIds(bystander.id)).toContain(id);
    expect(await boardIds()).toContain(id);
    await rejects(applyToFriendPost(db, blocker.id, id), "not_found");
    await rejects(applyToFriendPost(db, blocked.id, id), "not_found");
    // And the blocked player's own post is hidden from the poster.
    const theirs = await createFriendPost(db, blocked.id, input());
    expect(await boardIds(poster.id)).not.toContain(theirs.id);
  });

  it("a suspended or deleted poster's post disappears, from the board and the sitemap's lastmod", async () => {
    const suspended = await createUser(db);
    const deleted = await createUser(db);
    const s = await createFriendPost(db, suspended.id, input());
    const d = await createFriendPost(db, deleted.id, input());
    expect(await boardIds()).toEqual(expect.arrayContaining([s.id, d.id]));
    await db.update(profiles).set({ suspendedAt: new Date() }).where(eq(profiles.userId, suspended.id));
    // What deletion leaves of a profile (features/users/account.server.ts deleteAccount).
    await db.update(profiles).set({ displayName: "退会したユーザー", friendId: null, deletedAt: new Date() }).where(eq(profiles.userId, deleted.id));
    const ids = await boardIds();
    expect(ids).not.toContain(s.id);
    expect(ids).not.toContain(d.id);
    const applicant = await createUser(db);
    await rejects(applyToFriendPost(db, applicant.id, s.id), "not_found");
    const lastmod = await friendBoardLastModified(db);
    const [newestHidden] = await db.select({ at: friendPosts.raisedAt }).from(friendPosts).where(eq(friendPosts.id, d.id));
    expect(lastmod === null || lastmod.getTime() < newestHidden.at.getTime()).toBe(true);
  });

  it("reads past a run of unlisted posters to fill the page, in order", async () => {
    const listed = await createUser(db);
    const { id: listedPost } = await createFriendPost(db, listed.id, input({ purposes: ["challenge"], comment: "listed" }));
    // More newer posts by suspended posters than one batch holds (a page of 1 reads 12 at a time).
    for (let i = 0; i < 15; i++) {
      const hidden = await createUser(db);
      await createFriendPost(db, hidden.id, input({ purposes: ["challenge"], comment: "hidden" }));
      await db.update(profiles).set({ suspendedAt: new Date() }).where(eq(profiles.userId, hidden.id));
    }
    const page = await listFriendBoard(db, { filters: { purpose: "challenge" }, limit: 1 });
    expect(page.posts.map((p) => p.id)).toEqual([listedPost]);
  });

  it("the expiry sweep writes overdue posts expired and leaves live ones open", async () => {
    const a = await createUser(db);
    const b = await createUser(db);
    const overdue = await createFriendPost(db, a.id, input());
    const live = await createFriendPost(db, b.id, input());
    await age(overdue.id, 25);
    expect(await expireFriendPosts(db)).toBeGreaterThanOrEqual(1);
    const status = async (id: string) => (await db.select({ status: friendPosts.status }).from(friendPosts).where(eq(friendPosts.id, id)))[0].status;
    expect(await status(overdue.id)).toBe("expired");
    expect(await status(live.id)).toBe("open");
  });

  it("the sitemap's lastmod skips expired posts", async () => {
    const a = await createUser(db);
    const { id } = await createFriendPost(db, a.id, input());
    expect((await friendBoardLastModified(db))?.getTime()).toBe((await db.select({ at: friendPosts.raisedAt }).from(friendPosts).where(eq(friendPosts.id, id)))[0].at.getTime());
    await age(id, 25);
    const lastmod = await friendBoardLastModified(db);
    const [expired] = await db.select({ at: friendPosts.raisedAt }).from(friendPosts).where(eq(friendPosts.id, id));
    expect(lastmod === null || lastmod.getTime() < expired.at.getTime() + 25 * 3_600_000 - 1).toBe(true);
    expect(lastmod?.getTime()).not.toBe(expired.at.getTime());
  });
});

describe("friend board: 申請しました", () => {
  it("is stored once per post and player and notifies the poster once, with the applicant's name and friend ID", async () => {
    const poster = await createUser(db);
    const applicant = await createUser(db, { name: "申請する人", friendId: "1234567812345678" });
    const { id } = await createFriendPost(db, poster.id, input());
    await rejects(applyToFriendPost(db, poster.id, id), "own_post");
    expect(await applyToFriendPost(db, applicant.id, id)).toEqual({ already: false });
    expect(await applyToFriendPost(db, applicant.id, id)).toEqual({ already: true });
    expect(await db.select().from(friendApplications).where(eq(friendApplications.postId, id))).toHaveLength(1);
    const notes = await db
      .select({ id: notifications.id, kind: notifications.kind, actorId: notifications.actorId })
      .from(notifications)
      .where(and(eq(notifications.userId, poster.id), eq(notifications.kind, "friend")));
    expect(notes).toEqual([{ id: expect.any(String), kind: "friend", actorId: applicant.id }]);
    const delivered = await getNotificationForDelivery(db, notes[0].id);
    expect(delivered?.href).toBe("/friends");
    expect(notificationText(delivered!, "ja")).toBe("申請する人さんがフレンド募集を見て申請しました（フレンドID 1234-5678-1234-5678）");
    // The push and mail channels are queued through the outbox like every notification.
    const queued = await db.execute(sql`select 1 from delivery_outbox where kind = 'notify' and payload->>'id' = ${notes[0].id}`);
    expect((queued as { rows: unknown[] }).rows).toHaveLength(1);
    // The poster's own post lists who applied.
    const own = await ownFriendPost(db, poster.id);
    expect(own?.applicants).toEqual([{ userId: applicant.id, displayName: "申請する人", friendId: "1234567812345678", at: expect.any(String) }]);
  });

  it("needs the applicant's friend ID and a live post", async () => {
    const poster = await createUser(db);
    const { id } = await createFriendPost(db, poster.id, input());
    await rejects(applyToFriendPost(db, (await createUser(db, { friendId: null })).id, id), "friend_id_required");
    await closeFriendPost(db, poster.id, id);
    await rejects(applyToFriendPost(db, (await createUser(db)).id, id), "not_found");
    await rejects(applyToFriendPost(db, (await createUser(db)).id, "not-a-uuid"), "not_found");
  });
});

describe("friend board: reports", () => {
  it("files a report on someone else's post through the one report service, once while open", async () => {
    const poster = await createUser(db);
    const reporter = await createUser(db);
    const { id } = await createFriendPost(db, poster.id, input());
    await rejects(reportFriendPost(db, poster.id, id, "スパム・宣伝"), "own_offer");
    const first = await reportFriendPost(db, reporter.id, id, "偽のフレンドID・存在しないID");
    expect(await reportFriendPost(db, reporter.id, id, "スパム・宣伝")).toEqual(first);
    const rows = await db.select({ targetType: reports.targetType, reason: reports.reason }).from(reports).where(eq(reports.id, first.reportId));
    expect(rows).toEqual([{ targetType: "friend_post", reason: "偽のフレンドID・存在しないID" }]);
    // The admin list names the poster and shows the comment; suspending them takes the post down.
    const [listed] = await listReports(db, { id: first.reportId });
    expect(listed).toMatchObject({ targetType: "friend_post", targetUserId: poster.id, messageBody: "よろしくお願いします" });
    await resolveReport(db, first.reportId, "suspendUser");
    const [post] = await db.select({ status: friendPosts.status }).from(friendPosts).where(eq(friendPosts.id, id));
    expect(post.status).toBe("closed");
    expect(await boardIds()).not.toContain(id);
  });
});

describe("friend board: trade candidates", () => {
  it("shows a signed-in reader how many trade pairs they have with each poster, when both use their collection for trades", async () => {
    const [x, y] = await catalogueCards(db, "◆◆", 2);
    const keeper = async (counts: Record<string, number>, wanted: string[], useForTrades = true) => {
      const user = await createUser(db);
      await setCardCounts(db, user.id, Object.entries(counts).map(([cardId, count]) => ({ cardId, count })));
      for (const cardId of wanted) await db.execute(sql`insert into wanted_cards (user_id, card_id) values (${user.id}, ${cardId})`);
      await saveCollectionSettings(db, user.id, { showProgress: false, useForTrades, wantMode: "wants" });
      return user;
    };
    const reader = await keeper({ [x.id]: 2 }, [y.id]);
    const match = await keeper({ [y.id]: 2 }, [x.id]);
    const private_ = await keeper({ [y.id]: 2 }, [x.id], false);
    const plain = await createUser(db);
    for (const poster of [match, private_, plain]) await createFriendPost(db, poster.id, input({ purposes: ["other"] }));
    const page = await friendsPage(db, { id: reader.id, friendId: null }, { filters: { purpose: "other" }, cursor: null });
    expect(page.posts.map((p) => p.ownerId)).toEqual(expect.arrayContaining([match.id, private_.id, plain.id]));
    expect(page.candidateCounts).toEqual({ [match.id]: 1 });
    const signedOut = await friendsPage(db, null, { filters: { purpose: "other" }, cursor: null });
    expect(signedOut.candidateCounts).toEqual({});
  });
});
