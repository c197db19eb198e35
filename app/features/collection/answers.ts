import { answerChecked } from "#app/lib/send.ts";

/**
 * The collection page's constants and the answers its buttons read, without zod: /collection is a
 * phone page read every day, and zod's runtime (25 KB gzip) would be most of its own JavaScript
 * only to read these few fields (docs/decisions/027). The server's schemas import the constants.
 */

/** Cards one count change may name (a bulk action or a queue of taps is sent in such slices). */
export const MAX_CHANGES = 500;

/** What a player wants in trades: the cards missing from chosen sets, the ほしいカード list, or both. */
export const WANT_MODES = ["missing", "wants", "both"] as const;
export type WantMode = (typeof WANT_MODES)[number];

type CardCount = { cardId: string; count: number };
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null;
const isCardCounts = (value: unknown): value is CardCount[] =>
  Array.isArray(value) && value.every((c) => isRecord(c) && typeof c.cardId === "string" && typeof c.count === "number");
const isStringsOrNull = (value: unknown): value is string[] | null => value === null || (Array.isArray(value) && value.every((v) => typeof v === "string"));

/** The answer of a count change: what was before (元に戻す) and after. */
export type CountChange = { previous: CardCount[]; counts: CardCount[] };
export const countChangeAnswer = answerChecked((value): value is CountChange => isRecord(value) && isCardCounts(value.previous) && isCardCounts(value.counts));

/** The collection's settings as saved (collection.server's CollectionSettings). */
export type CollectionSettingsValues = {
  showProgress: boolean;
  useForTrades: boolean;
  /** Copies of each card kept; those above are spare (0..99, default 1). */
  keepCount: number;
  /** Rarities (display codes) traded; null: every rarity the trade rules allow. */
  tradeRarities: string[] | null;
  wantMode: WantMode;
  /** Sets whose missing cards are wanted; null: every set. */
  wantSets: string[] | null;
};
export const settingsAnswer = answerChecked(
  (value): value is CollectionSettingsValues =>
    isRecord(value) &&
    typeof value.showProgress === "boolean" &&
    typeof value.useForTrades === "boolean" &&
    typeof value.keepCount === "number" &&
    isStringsOrNull(value.tradeRarities) &&
    WANT_MODES.includes(value.wantMode as WantMode) &&
    isStringsOrNull(value.wantSets),
);

/** A CSV import: how many counts it wrote. */
export const importAnswer = answerChecked((value): value is { count: number } => isRecord(value) && typeof value.count === "number");
