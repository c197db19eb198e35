import { sql, type SQL } from "drizzle-orm";
import type { Db } from "#app/db/client.server.ts";
import { wantMet } from "#app/db/open-wants.ts";
import { rowsOf, type Queryable } from "#app/db/sql.server.ts";
import { databaseLimit } from "#app/lib/rate-limit.server.ts";
import { cardTradeability } from "#app/features/trades/trade-rules.server.ts";
import { NotificationError } from "./errors";

/** ほしいカード: a list kept short enough to stay a real wish list, not the whole catalogue. */
export const MAX_WANTED_CARDS = 100;

/**
 * Adds a card to the player's ほしいカード list. Only a card the board can trade now may go on it
 * (the trade rules, features/trades/trade-rules.server.ts, so an admin's change applies at once) —
 * otherwise no offer could give it.
 */
export async function addWantedCard(db: Db, userId: string, cardId: string): Promise<void> {
  const [card] = await rowsOf<{ name: string }>(db, sql`select c.name from cards c where c.id = ${cardId}`);
  if (!card) throw new NotificationError("card_not_found");
  const state = (await cardTradeability(db, [cardId])).get(cardId);
  if (!state?.tradeable) throw new NotificationError("not_tradeable", { name: card.name });
  await db.transaction((tx) => insertWantedCards(tx, userId, [cardId]));
}

/** What adding several cards at once came to (足りないカードをほしいカードに追加). */
export type WantedCardsAdded = { added: string[]; already: string[]; notTradeable: string[] };

/**
 * Adds several cards to the player's ほしいカード list at once, all or nothing: the cards the
 * trade rules close now are left out and named (no offer could give them), the cards already on
 * the list are named too, and when the rest would take the list past MAX_WANTED_CARDS nothing is
 * added.
 */
export async function addWantedCards(db: Db, userId: string, cardIds: readonly string[]): Promise<WantedCardsAdded> {
  const ids = [...new Set(cardIds)];
  if (!ids.length) return { added: [], already: [], notTradeable: [] };
  const known = await rowsOf<{ id: string }>(db, sql`select id from cards where id in (${sql.join(ids.map((id) => sql`${id}`), sql`, `)})`);
  if (known.length !== ids.length) throw new NotificationError("card_not_found");
  const states = await cardTradeability(db, ids);
  const tradeable = ids.filter((id) => states.get(id)?.tradeable);
  const notTradeable = ids.filter((id) => !states.get(id)?.tradeable);
  const { added, already } = await db.transaction((tx) => insertWantedCards(tx, userId, tradeable));
  return { added, already, notTradeable };
}

/** The one place a want is written: the player's row lock, the cap, then the rows. */
async function insertWantedCards(tx: Queryable, userId: string, cardIds: readonly string[]): Promise<{ added: string[]; already: string[] }> {
  if (!cardIds.length) return { added: [], already: [] };
  // The user's row lock serialises their adds, so two at once cannot both be the 101st.
  await tx.execute(sql`select 1 from profiles where user_id = ${userId} for update`);
  const [row] = await rowsOf<{ n: number | string }>(tx, sql`select count(*) as n from wanted_cards where user_id = ${userId}`);
  const listed = await wantedAmong(tx, userId, cardIds);
  // A want on the list that the collection has met is wanted again: it starts from today's count.
  const renewed = await metAmong(tx, userId, listed);
  const already = listed.filter((id) => !renewed.includes(id));
  if (renewed.length) {
    await tx.execute(
      sql`update wanted_cards w set owned_when_wanted = coalesce((select cc.count from collection_cards cc where cc.user_id = w.user_id and cc.card_id = w.card_id), 0), created_at = now()
          where w.user_id = ${userId} and w.card_id in (${sql.join(renewed.map((id) => sql`${id}`), sql`, `)})`,
    );
  }
  const added = cardIds.filter((id) => !listed.includes(id));
  if (!added.length) return { added: renewed, already };
  if (Number(row?.n ?? 0) + added.length > MAX_WANTED_CARDS) throw new NotificationError("too_many_wanted", { max: MAX_WANTED_CARDS });
  // What the collection holds now: the want is met once it holds more (docs/decisions/046).
  await tx.execute(
    sql`insert into wanted_cards (user_id, card_id, owned_when_wanted)
        select ${userId}, w.card_id, coalesce(cc.count, 0)
        from unnest(array[${sql.join(added.map((id) => sql`${id}`), sql`, `)}]::text[]) as w(card_id)
        left join collection_cards cc on cc.user_id = ${userId} and cc.card_id = w.card_id
        on conflict do nothing`,
  );
  return { added: [...renewed, ...added], already };
}

/** Which of `cardIds` (on the player's list) the collection has met (docs/decisions/046). */
async function metAmong(db: Queryable, userId: string, cardIds: readonly string[]): Promise<string[]> {
  if (!cardIds.length) return [];
  const rows = await rowsOf<{ card_id: string }>(
    db,
    sql`select w.card_id from wanted_cards w where w.user_id = ${userId} and w.card_id in (${sql.join(
      cardIds.map((id) => sql`${id}`),
      sql`, `,
    )}) and ${wantMet("w")}`,
  );
  return rows.map((r) => r.card_id);
}

/** Adds and removes a player may make per minute (a press each; a person pressing chips stays well under it). */
export const WANTED_CHANGES_PER_MINUTE = 30;
const wantedChangeLimit = databaseLimit({ name: "wanted-cards", max: WANTED_CHANGES_PER_MINUTE, window: "minute" });

/**
 * Counts one ほしいカード add or remove of the player (a database limit of lib/rate-limit.server.ts)
 * and refuses it with 429 past WANTED_CHANGES_PER_MINUTE in the current minute.
 */
export async function countWantedChange(db: Queryable, userId: string): Promise<void> {
  if (!(await wantedChangeLimit.take(userId, db))) throw new NotificationError("too_many_wanted_changes");
}

export async function removeWantedCard(db: Db, userId: string, cardId: string): Promise<void> {
  await db.execute(sql`delete from wanted_cards where user_id = ${userId} and card_id = ${cardId}`);
}

export async function isWantedCard(db: Queryable, userId: string, cardId: string): Promise<boolean> {
  const rows = await rowsOf<{ x: number }>(db, sql`select 1 as x from wanted_cards where user_id = ${userId} and card_id = ${cardId}`);
  return rows.length > 0;
}

/** Which of `cardIds` are on the player's ほしいカード list (the board's ほしい buttons). */
export async function wantedAmong(db: Queryable, userId: string, cardIds: readonly string[]): Promise<string[]> {
  const ids = [...new Set(cardIds)];
  if (!ids.length) return [];
  const rows = await rowsOf<{ card_id: string }>(
    db,
    sql`select card_id from wanted_cards where user_id = ${userId} and card_id in (${sql.join(
      ids.map((id) => sql`${id}`),
      sql`, `,
    )})`,
  );
  return rows.map((r) => r.card_id);
}

/** A card on the ほしい list; its set and number tell apart the prints that share a name and rarity. */
export type WantedCard = {
  cardId: string;
  name: string;
  nameEn: string;
  rarity: string;
  setCode: string | null;
  number: number | null;
  /** The collection now holds more copies than when it was wanted: no alerts for it (decision 046). */
  met: boolean;
};

export async function listWantedCards(db: Queryable, userId: string): Promise<WantedCard[]> {
  return wantedCardsOf(await rowsOf<WantedCardRow>(db, wantedCardsQuery(userId)));
}

export type WantedCardRow = { card_id: string; name: string; name_en: string; rarity: string; set_code: string | null; number: number | null; met: boolean };

/** listWantedCards' query (WantedCardRow; readTogether can run it with others), newest first. */
export function wantedCardsQuery(userId: string): SQL {
  return sql`select w.card_id, c.name, c.name_en, c.rarity, c.set_code, c.number, ${wantMet("w")} as met from wanted_cards w join cards c on c.id = w.card_id
        where w.user_id = ${userId} order by w.created_at desc, w.card_id`;
}

export function wantedCardsOf(rows: readonly WantedCardRow[]): WantedCard[] {
  return rows.map((r) => ({ cardId: r.card_id, name: r.name, nameEn: r.name_en, rarity: r.rarity, setCode: r.set_code, number: r.number, met: Boolean(r.met) }));
}
