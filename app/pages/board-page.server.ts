import type { Db } from "#app/db/client.server.ts";
import type { Locale } from "#app/lib/i18n.tsx";
import { listPacks } from "#app/features/cards/cards.server.ts";
import { wantedAmong } from "#app/features/notifications/want-list.server.ts";
import { cardsByIds, listBoard, listTradePacks, listTradeRarities } from "#app/features/trades/board.server.ts";
import { TradeError } from "#app/features/trades/errors.ts";
import { listMatchListPage, parseMatchPage } from "#app/features/trades/matches.server.ts";
import { toListItem } from "#app/features/trades/offer-views.server.ts";
import { offersClosedByRules } from "#app/features/trades/trade-rules.server.ts";
import type { BoardFilters } from "#app/features/trades/trades.schema.ts";

export type BoardPageQuery = { view: "all" | "matches"; filters: BoardFilters; cursor: string | null; page: string | null };

/**
 * What /trades shows: the board (a page of open offers under the filters, with the filter form's
 * lists) or the reader's マッチ, each offer marked when a trade rule closes it, and which of the
 * cards given on the page the reader already wants (null: signed out). A damaged cursor or page
 * number in a shared link shows the first page rather than an error.
 */
export async function readBoardPage(db: Db, viewerId: string | null, locale: Locale, query: BoardPageQuery) {
  const { view, filters } = query;
  let cursor = query.cursor;
  // The filter form's lists belong to the whole board; マッチ shows no filters and sends none.
  const [packs, rarityOptions, filterCards] =
    view === "matches"
      ? [[], [], []]
      : await Promise.all([listPacks(db), listTradeRarities(db), cardsByIds(db, [filters.give, filters.want].filter((id): id is string => Boolean(id)))]);
  let board: Awaited<ReturnType<typeof listBoard>> = { offers: [], nextCursor: null };
  let matches: Awaited<ReturnType<typeof listMatchListPage>> | null = null;
  if (view === "matches") {
    let page = 1;
    try {
      page = parseMatchPage(query.page);
    } catch (error) {
      if (!(error instanceof TradeError)) throw error;
    }
    if (viewerId) matches = await listMatchListPage(db, viewerId, page, locale);
  } else {
    try {
      board = await listBoard(db, { viewerId, filters, cursor });
    } catch (error) {
      if (!(error instanceof TradeError)) throw error;
      cursor = null;
      board = await listBoard(db, { viewerId, filters });
    }
  }
  const closedByRules = await offersClosedByRules(db, board.offers);
  const givenHere = [...board.offers, ...(matches?.items ?? [])].flatMap((o) => (o.ownerId === viewerId ? [] : o.give.map((c) => c.cardId)));
  const wantedCardIds = viewerId ? await wantedAmong(db, viewerId, givenHere) : null;
  return {
    view,
    filters,
    isFirstPage: !cursor,
    offers: board.offers.map((offer) => (closedByRules.has(offer.id) ? { ...toListItem(offer, locale), ruleClosed: true } : toListItem(offer, locale))),
    nextCursor: board.nextCursor,
    matches,
    viewerId,
    wantedCardIds,
    packs: (await listTradePacks(db, packs)).map((p) => ({ id: p.id, name: locale === "en" ? p.nameEn : p.nameJa })),
    rarities: rarityOptions.map((r) => r.code),
    filterCards,
  };
}
