import { z } from "#app/lib/zod.ts";
import { MAX_CHANGES, WANT_MODES, type WantMode } from "./answers";
import { OWNED_STATES } from "./collection-filter";

/** One request changes at most this many cards (after repeats of a card are merged): a bulk of the biggest set, or an undo of it. */
export { MAX_CHANGES };

// Counts are any integer here: the service refuses one past 0..99 with its own code (count_out_of_range).
const CardId = z.string().min(1).max(64);
const Count = z.number().int().min(-100_000).max(100_000);

/** POST /api/collection/counts: absolute counts (a tap, a typed number, a queue flush, 元に戻す) or one ±delta. */
export const CountChangeSchema = z.union([
  z.object({ changes: z.array(z.object({ cardId: CardId, count: Count })).min(1).max(1000) }),
  z.object({ cardId: CardId, delta: Count }),
]);

/** The filter of the page, as the page's query and the bulk actions send it. */
export const CollectionFilterSchema = z.object({
  set: z.string().min(1).max(20),
  pack: z.string().max(64).nullish(),
  rarity: z.string().max(20).nullish(),
  type: z.string().max(20).nullish(),
  owned: z.enum(OWNED_STATES).nullish(),
  q: z.string().max(100).nullish(),
});

/** POST /api/collection/bulk: この絞り込みをすべて1枚にする (`one`) / 0に戻す (`zero`). */
export const BulkChangeSchema = z.object({ filter: CollectionFilterSchema, mode: z.enum(["one", "zero"]) });

export { WANT_MODES, type WantMode };

/**
 * PUT /api/collection/settings. The trade settings may be left out (a client that knows only the
 * two switches keeps what is stored); `null` rarities or sets mean every one.
 */
export const CollectionSettingsSchema = z.object({
  showProgress: z.boolean(),
  useForTrades: z.boolean(),
  keepCount: z.number({ error: "errorKeepCount" }).int({ error: "errorKeepCount" }).min(0, { error: "errorKeepCount" }).max(99, { error: "errorKeepCount" }).optional(),
  tradeRarities: z.array(z.string().min(1).max(8)).max(20).nullable().optional(),
  wantMode: z.enum(WANT_MODES).optional(),
  wantSets: z.array(z.string().min(1).max(20)).max(200).nullable().optional(),
});

/** The /collection page's query (anything unknown falls back to the default). */
export const CollectionPageQuerySchema = z.object({
  set: z.string().max(20).optional().catch(undefined),
  pack: z.string().max(64).optional().catch(undefined),
  rarity: z.string().max(20).optional().catch(undefined),
  type: z.string().max(20).optional().catch(undefined),
  owned: z.enum(OWNED_STATES).optional().catch(undefined),
  q: z.string().max(100).optional().catch(undefined),
  page: z.coerce.number().int().min(1).max(1000).optional().catch(undefined),
});

/**
 * /collection/trades' query: `with`, one player shown first (a friend-board post links here);
 * `deck`, a deck's slug whose missing cards stand for what I want (a deck page links here).
 */
export const CandidatesPageQuerySchema = z.object({
  with: z.string().min(1).max(64).optional().catch(undefined),
  deck: z.string().min(1).max(200).optional().catch(undefined),
});

/**
 * The トレード候補 proposal form: the partner and the chosen pairs (`<my card>|<their card>`);
 * `only` is the one pair of a pair's own button, which wins over the checked ones.
 */
export const ProposalFormSchema = z.object({
  partnerId: z.string().min(1).max(64),
  pairs: z.array(z.string().regex(/^[^|]{1,64}\|[^|]{1,64}$/)).max(50),
  only: z.string().regex(/^[^|]{1,64}\|[^|]{1,64}$/).optional(),
  /** The deck whose missing cards the page's pairs were found for (/collection/trades?deck=). */
  deck: z.string().min(1).max(200).optional(),
});
