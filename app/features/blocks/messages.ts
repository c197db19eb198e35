import { defineMessages } from "#app/lib/i18n.tsx";

/** /profile ブロック中のユーザー. */
export const blocksMessages = defineMessages({
  ja: {
    blockedUsers: "ブロック中のユーザー",
    blockedUsersEmpty: "ブロック中のユーザーはいません。",
    unblock: "解除",
    unblockLabel: "{name}さんのブロックを解除",
    unblocked: "ブロックを解除しました",
    errorCannotBlockSelf: "自分をブロックすることはできません",
    // Blocking starts from an offer (or its room): a missing user reads as the offer's absence.
    errorNotFound: "募集が見つかりません",
  },
  en: {
    blockedUsers: "Blocked users",
    blockedUsersEmpty: "You have not blocked anyone.",
    unblock: "Unblock",
    unblockLabel: "Unblock {name}",
    unblocked: "The block was lifted",
    errorCannotBlockSelf: "You cannot block yourself",
    errorNotFound: "Offer not found",
  },
});
