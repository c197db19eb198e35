import type { JsonEndpoint } from "#app/lib/api.server.ts";
import { getViewer, requireApiViewer } from "#app/features/users/session.server.ts";
import { listBoard } from "./board.server";
import { matchPageJson, parseMatchPage } from "./matches.server";
import { BoardQuerySchema } from "./trades.schema";
import { readQuery } from "#app/lib/input.server.ts";
import { searchCards } from "#app/features/cards/cards.server.ts";
import { cardTradeabilityAt } from "./trade-rules";
import { loadTradeRules } from "./trade-rules.server";
import type { TradePickerCard } from "./types";

/** GET /api/trades?give=&giveAny=&want=&pack=&rarity=&cursor= — the board as JSON. */
export const boardEndpoint: JsonEndpoint = async (request, context) => {
  const { cursor, view: _view, page: _page, ...filters } = readQuery(request, BoardQuerySchema);
  const viewer = await getViewer(request, context);
  return Response.json(await listBoard(context.db, { viewerId: viewer?.id, filters, cursor }));
};

/** GET /api/trades/matches?page= — one page of マッチ for the signed-in user (JSON made once per kept page). */
export const matchesEndpoint: JsonEndpoint = async (request, context) => {
  const viewer = await requireApiViewer(request, context);
  const body = await matchPageJson(context.db, viewer.id, parseMatchPage(readQuery(request, BoardQuerySchema).page ?? null));
  return new Response(body, { headers: { "content-type": "application/json" } });
};

/**
 * GET /api/trades/picker?q=[&rarity=] — the trade card picker's search (docs/decisions/033): the cards the
 * trade rules allow now, and those a dated change already on the books will open, marked with
 * `opensAt`; a card closed with no reopening date is left out. Not cached by the browser: a rule
 * change shows at the next keystroke.
 */
export const tradePickerEndpoint: JsonEndpoint = async (request, context) => {
  const now = new Date();
  const rules = await loadTradeRules(context.db);
  const opensAt = new Map<string, string | null>();
  const query = new URL(request.url).searchParams;
  // `rarity=◆,◆◆`: only these rarities (a 何でも可 side is chosen within the other side's rarities).
  const rarities = new Set((query.get("rarity") ?? "").split(",").filter(Boolean));
  const found = await searchCards(context.db, query.get("q") ?? "", {
    accept: (card) => {
      if (rarities.size > 0 && !rarities.has(card.rarity)) return false;
      const state = cardTradeabilityAt(rules, card, now);
      const until = state.tradeable ? null : state.until;
      if (!state.tradeable && until === null) return false;
      opensAt.set(card.id, until);
      return true;
    },
  });
  const cards: TradePickerCard[] = found.map((card) => ({ ...card, opensAt: opensAt.get(card.id) ?? null }));
  return Response.json({ cards }, { headers: { "Cache-Control": "no-store" } });
};
