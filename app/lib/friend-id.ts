/**
 * Pokémon TCG Pocket friend IDs are 16 digits. People paste them from the game with spaces or
 * hyphens, or type them with a Japanese IME in full-width digits: all of those are accepted and
 * stored as 16 ASCII digits.
 */
export const FRIEND_ID_LENGTH = 16;

const SEPARATORS = /[\s\-‐‑‒–—―−ー－_]/g;

/** The stored form, or null when the input is not a friend ID once normalised. */
export function normalizeFriendId(raw: string): string | null {
  const folded = raw.normalize("NFKC").replace(SEPARATORS, "");
  return /^\d{16}$/.test(folded) ? folded : null;
}

/** 1234-5678-9012-3456 */
export function formatFriendId(friendId: string): string {
  return friendId.replace(/(\d{4})(?=\d)/g, "$1-");
}
