import type { Db } from "#app/db/client.server.ts";
import { FriendsError } from "#app/features/friends/errors.ts";
import type { FriendBoardFilters } from "#app/features/friends/friends.schema.ts";
import { appliedPostIds, listFriendBoard, listFriendSets, ownFriendPost, type FriendBoardPage, type OwnFriendPost } from "#app/features/friends/friends.server.ts";
import { tradeCandidateCounts } from "#app/features/trade-candidates/trade-candidates.server.ts";

export type FriendsPageViewer = { id: string; friendId: string | null } | null;

export type FriendsPage = FriendBoardPage & {
  /** The cursor the page was read with (null: the first page, also for a damaged cursor). */
  cursor: string | null;
  sets: { code: string; nameJa: string; nameEn: string }[];
  own: OwnFriendPost | null;
  /** Posts on this page the viewer already said they applied to. */
  appliedIds: string[];
  /**
   * Per poster on this page, how many trade pairs the viewer has with them (both keep a collection
   * used for trades; docs/decisions/041); posters with none are absent.
   */
  candidateCounts: Record<string, number>;
};

/**
 * /friends: a page of the board, the sets for the filter and form, the viewer's own post, and the
 * trade candidates the viewer has among the posters.
 */
export async function friendsPage(db: Db, viewer: FriendsPageViewer, input: { filters: FriendBoardFilters; cursor: string | null }): Promise<FriendsPage> {
  let cursor = input.cursor;
  let board: FriendBoardPage;
  try {
    board = await listFriendBoard(db, { viewerId: viewer?.id, filters: input.filters, cursor });
  } catch (error) {
    // A damaged cursor in a shared link shows the first page rather than an error.
    if (!(error instanceof FriendsError)) throw error;
    cursor = null;
    board = await listFriendBoard(db, { viewerId: viewer?.id, filters: input.filters });
  }
  const [sets, own, applied, counts] = await Promise.all([
    listFriendSets(db),
    viewer ? ownFriendPost(db, viewer.id) : null,
    viewer ? appliedPostIds(db, viewer.id, board.posts.map((p) => p.id)) : new Set<string>(),
    viewer ? tradeCandidateCounts(db, viewer.id, board.posts.map((p) => p.ownerId)) : new Map<string, number>(),
  ]);
  return { ...board, cursor, sets, own, appliedIds: [...applied], candidateCounts: Object.fromEntries(counts) };
}
