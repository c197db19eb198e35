/**
 * フレンド募集's rules (docs/decisions/043-friend-board.md), shared by the form and the server.
 * Nothing here touches the database, so the client bundle can use it.
 */

/** What a post is for: トレード / ゲットチャレンジ / バトル / その他. */
export const FRIEND_PURPOSES = ["trade", "challenge", "battle", "other"] as const;
export type FriendPurpose = (typeof FRIEND_PURPOSES)[number];

/** A post leaves the board 24 hours after it was posted or last raised. */
export const FRIEND_POST_TTL_HOURS = 24;
/** 上げる: back to the top at most once every 3 hours, so the board is not a race of raises. */
export const FRIEND_RAISE_INTERVAL_HOURS = 3;
export const FRIEND_COMMENT_MAX_LENGTH = 100;
/** Sets a post may name as what the poster opens or collects. */
export const FRIEND_SETS_MAX = 5;
export const FRIEND_BOARD_PAGE_SIZE = 20;
/** Per player, counted in the database: posts and edits an hour, raises a day, 申請しました an hour. */
export const FRIEND_POSTS_PER_HOUR = 10;
export const FRIEND_RAISES_PER_DAY = 6;
export const FRIEND_APPLICATIONS_PER_HOUR = 30;
