import { AppError, type ErrorTable } from "#app/lib/errors.ts";
import type { Params } from "#app/lib/i18n.tsx";
import { friendsMessages, type FriendsMessageKey } from "./messages";

export const FRIENDS_ERRORS = {
  not_found: [404, "errorNotFound"],
  forbidden: [403, "errorForbidden"],
  friend_id_required: [409, "errorFriendIdRequired"],
  suspended: [403, "errorSuspended"],
  already_posted: [409, "errorAlreadyPosted"],
  unknown_set: [400, "errorUnknownSet"],
  raise_too_soon: [409, "errorRaiseTooSoon"],
  own_post: [400, "errorOwnPost"],
  rate_limited_post: [429, "errorRateLimitedPost"],
  rate_limited_raise: [429, "errorRateLimitedRaise"],
  rate_limited_apply: [429, "errorRateLimitedApply"],
  invalid_cursor: [400, "errorInvalidCursor"],
} as const satisfies ErrorTable<FriendsMessageKey>;

export type FriendsErrorCode = keyof typeof FRIENDS_ERRORS;

/** A フレンド募集 rule a request broke (docs/decisions/009). */
export class FriendsError extends AppError<FriendsErrorCode> {
  constructor(code: FriendsErrorCode, params?: Params) {
    super(friendsMessages, FRIENDS_ERRORS, code, params);
  }
}
