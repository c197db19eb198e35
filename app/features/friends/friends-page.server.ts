import type { Db } from "../../db/client.server";
import { FriendsError } from "./errors";
import type { FriendBoardFilters } from "./friends.schema";
import { appliedPostIds, listFriendBoard, listFriendSets, ownFriendPost, type FriendBoardPage, type OwnFriendPost } from "./friends.server";

export type FriendsPageViewer = { id: string; friendId: string | null } | null;

export type FriendsPage = FriendBoardPage & {
  /** The cursor the page was read with (null: the first page, also for a damaged cursor). */
  cursor: string | null;
  sets: { code: string; nameJa: string; nameEn: string }[];
  own: OwnFriendPost | null;
  /** Posts on this page the viewer already said they applied to. */
  appliedIds: string[];
};

/** /friends: a page of the board, the sets for the filter and form, and the viewer's own post. */
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
  const [sets, own, applied] = await Promise.all([
    listFriendSets(db),
    viewer ? ownFriendPost(db, viewer.id) : null,
    viewer ? appliedPostIds(db, viewer.id, board.posts.map((p) => p.id)) : new Set<string>(),
  ]);
  return { ...board, cursor, sets, own, appliedIds: [...applied] };
}
