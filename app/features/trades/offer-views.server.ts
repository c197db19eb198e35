import { eq, inArray, sql } from "drizzle-orm";
import { offerExpiredNow } from "#app/db/open-offers.ts";
import type { Db } from "#app/db/client.server.ts";
import { cards, rarities, tradeOfferCards } from "#app/db/schema/index.ts";
import { cardIndex, CARD_COLUMNS } from "#app/features/cards/card-index.server.ts";
import { cardName } from "#app/lib/card-name.ts";
import type { Locale } from "#app/lib/i18n.tsx";
import { BUMP_INTERVAL_HOURS, type OfferStatus } from "./rules";
import type { OfferCardView, OfferChipView, OfferListItem, OfferView } from "./types";

/**
 * How an offer is read: the columns every offer list selects, its cards from the card index,
 * and the views pages send (OfferView, the lighter OfferListItem).
 */

export const iso = (value: Date | string) => (value instanceof Date ? value : new Date(value)).toISOString();

export type OfferRow = {
  id: string;
  owner_id: string;
  status: string;
  comment: string;
  partner_id: string | null;
  created_at: Date | string;
  bumped_at: Date | string;
  expires_at: Date | string;
  bump_key: string;
  expired: boolean;
  can_bump_at: Date | string;
  display_name: string;
  completed_trades: number;
  last_active_at: Date | string;
  give_any: boolean;
  want_any: boolean;
  /** [side, cardId, count] of each card, from OFFER_COLUMNS. */
  offer_cards: [string, string, number][];
};

// Columns every offer list selects; `bump_key` is the exact (microsecond) cursor value.
export const OFFER_COLUMNS = sql`
  o.id, o.owner_id, o.status, o.comment, o.partner_id, o.created_at, o.bumped_at, o.expires_at, o.give_any, o.want_any,
  to_char(o.bumped_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US') as bump_key,
  ${offerExpiredNow()} as expired,
  o.bumped_at + make_interval(hours => ${BUMP_INTERVAL_HOURS}) as can_bump_at,
  p.display_name, p.completed_trades, p.last_active_at,
  (select coalesce(json_agg(json_build_array(c.side, c.card_id, c.count)), '[]'::json)
   from ${tradeOfferCards} c where c.offer_id = o.id) as offer_cards`;

type CardInfo = Omit<OfferCardView, "cardId" | "count"> & { rank: number };

/**
 * Name, rarity and picture of the cards of some offers: from the in-process card index (the
 * catalogue changes only on import), so an offer list is one query. A card the index does not
 * know yet (imported on another instance a moment ago) is read from the database.
 */
async function cardInfo(db: Db, ids: Set<string>): Promise<Map<string, CardInfo>> {
  const index = await cardIndex(db);
  const found = new Map<string, CardInfo>();
  const missing: string[] = [];
  for (const id of ids) {
    const card = index.byId.get(id);
    if (card) found.set(id, card);
    else missing.push(id);
  }
  if (missing.length) {
    const rows = await db
      .select({
        ...CARD_COLUMNS,
        rank: sql<number>`coalesce(${rarities.rank}, 0)`,
      })
      .from(cards)
      .leftJoin(rarities, eq(rarities.code, cards.rarity))
      .where(inArray(cards.id, missing));
    for (const row of rows) found.set(row.id, { ...row, rank: Number(row.rank) });
  }
  return found;
}

/** Highest rarity first, then set and number: how every offer lists its cards. */
function compareOfferCards(a: CardInfo & { cardId: string }, b: CardInfo & { cardId: string }): number {
  return (
    b.rank - a.rank ||
    // As PostgreSQL orders them: a card without a set code after those with one.
    ((a.setCode ?? "\uffff") < (b.setCode ?? "\uffff") ? -1 : (a.setCode ?? "\uffff") > (b.setCode ?? "\uffff") ? 1 : 0) ||
    (a.number ?? Number.MAX_SAFE_INTEGER) - (b.number ?? Number.MAX_SAFE_INTEGER) ||
    (a.cardId < b.cardId ? -1 : a.cardId > b.cardId ? 1 : 0)
  );
}

function toView(row: OfferRow, sides: { give: OfferCardView[]; want: OfferCardView[] } | undefined): OfferView {
  const status = (row.expired ? "expired" : row.status) as OfferStatus;
  return {
    id: row.id,
    ownerId: row.owner_id,
    ownerName: row.display_name,
    ownerCompletedTrades: Number(row.completed_trades),
    ownerLastActiveAt: iso(row.last_active_at),
    status,
    comment: row.comment,
    partnerId: row.partner_id,
    give: sides?.give ?? [],
    want: sides?.want ?? [],
    giveAny: row.give_any === true,
    wantAny: row.want_any === true,
    createdAt: iso(row.created_at),
    bumpedAt: iso(row.bumped_at),
    expiresAt: iso(row.expires_at),
    nextBumpAt: status === "open" || status === "expired" ? iso(row.can_bump_at) : null,
  };
}

export async function withCards(db: Db, rows: OfferRow[]): Promise<OfferView[]> {
  const ids = new Set<string>();
  for (const row of rows) for (const [, cardId] of row.offer_cards) ids.add(cardId);
  const info = ids.size ? await cardInfo(db, ids) : new Map<string, CardInfo>();
  return rows.map((row) => {
    const listed = row.offer_cards
      .filter(([, cardId]) => info.has(cardId))
      .map(([side, cardId, count]) => ({ side, cardId, count: Number(count), ...info.get(cardId)! }))
      .sort(compareOfferCards);
    const view = (side: string): OfferCardView[] =>
      listed
        .filter((c) => c.side === side)
        .map((c) => ({
          cardId: c.cardId,
          count: c.count,
          name: c.name,
          nameEn: c.nameEn,
          rarity: c.rarity,
          imageUrl: c.imageUrl,
          imageFile: c.imageFile,
          storedImage: c.storedImage,
          speciesArt: c.speciesArt,
          element: c.element,
          cardType: c.cardType,
          stage: c.stage,
          hp: c.hp,
          setCode: c.setCode,
          number: c.number,
        }));
    return toView(row, { give: view("give"), want: view("want") });
  });
}

/**
 * A chip of a list: only what it reads, and none of the fields the card has no value for. Its name
 * is the reader's language already (a language switch reloads the page's data).
 */
function toChip(c: OfferCardView, locale: Locale): OfferChipView {
  const chip: OfferChipView = { cardId: c.cardId, count: c.count, name: cardName(c, locale), rarity: c.rarity };
  if (c.imageUrl) chip.imageUrl = c.imageUrl;
  if (c.imageFile) chip.imageFile = c.imageFile;
  if (c.storedImage) chip.storedImage = c.storedImage;
  if (c.speciesArt) chip.speciesArt = c.speciesArt;
  if (c.element) chip.element = c.element;
  if (c.cardType) chip.cardType = c.cardType;
  if (c.setCode) chip.setCode = c.setCode;
  if (c.number !== null) chip.number = c.number;
  return chip;
}

/** What a list page sends to the browser of an offer (OfferListItem). */
export function toListItem(offer: OfferView, locale: Locale): OfferListItem {
  return {
    id: offer.id,
    ownerId: offer.ownerId,
    ownerName: offer.ownerName,
    ownerCompletedTrades: offer.ownerCompletedTrades,
    ownerLastActiveAt: offer.ownerLastActiveAt,
    status: offer.status,
    comment: offer.comment,
    createdAt: offer.createdAt,
    bumpedAt: offer.bumpedAt,
    give: offer.give.map((c) => toChip(c, locale)),
    want: offer.want.map((c) => toChip(c, locale)),
    giveAny: offer.giveAny,
    wantAny: offer.wantAny,
  };
}

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const isOfferId = (value: string) => UUID.test(value);
