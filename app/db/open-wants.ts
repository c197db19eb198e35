import { sql, type SQL } from "drizzle-orm";

/**
 * The want list's "still wanted" rule, in one place (docs/decisions/046): a ほしいカード row stands
 * while the player's collection holds no more copies of the card than when they wanted it. Once
 * more arrive the want is met: no alert, no trade candidate wants it; the row stays, so 元に戻す
 * on the collection (or a count lowered again) brings the want back.
 */

/** `alias` (a `wanted_cards` row) still stands, for raw SQL. */
export function wantStillOpen(alias = "wc"): SQL {
  const w = sql.raw(alias);
  return sql`not exists (select 1 from collection_cards met where met.user_id = ${w}.user_id and met.card_id = ${w}.card_id and met.count > ${w}.owned_when_wanted)`;
}

/** `alias` (a `wanted_cards` row) is met: the collection now holds more copies than when it was wanted. */
export function wantMet(alias = "wc"): SQL {
  const w = sql.raw(alias);
  return sql`exists (select 1 from collection_cards met where met.user_id = ${w}.user_id and met.card_id = ${w}.card_id and met.count > ${w}.owned_when_wanted)`;
}
