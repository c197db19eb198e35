import { isTrainerCard } from "#app/lib/card-face.ts";
import type { CardListItem } from "#app/features/cards/types.ts";

/** 持っている / 持っていない / ダブり (two copies or more: one to keep, the rest to trade). */
export const OWNED_STATES = ["have", "missing", "duplicate"] as const;
export type OwnedState = (typeof OWNED_STATES)[number];

/** A pokémon type (草 炎 …) or every trainer card. */
export type TypeFilter = string;

export type CollectionFilter = {
  set: string;
  pack?: string | null;
  rarity?: string | null;
  type?: TypeFilter | null;
  owned?: OwnedState | null;
  /** The folded search terms of the site's kana-blind search (cards.server.ts searchTerms). */
  terms?: readonly string[];
};

export type FilterableCard = Pick<CardListItem, "id" | "rarity" | "element" | "cardType"> & { searchText: string; packIds: readonly string[] };

/** Whether a card of the chosen set passes the other filters, given how many the player owns. */
export function passesFilter(card: FilterableCard, count: number, filter: Omit<CollectionFilter, "set">): boolean {
  if (filter.pack && !card.packIds.includes(filter.pack)) return false;
  if (filter.rarity && card.rarity !== filter.rarity) return false;
  if (filter.type) {
    if (filter.type === "trainer" ? !isTrainerCard(card) : isTrainerCard(card) || card.element !== filter.type) return false;
  }
  if (filter.owned === "have" && count < 1) return false;
  if (filter.owned === "missing" && count > 0) return false;
  if (filter.owned === "duplicate" && count < 2) return false;
  return (filter.terms ?? []).every((term) => card.searchText.includes(term));
}

/** owned/total as a whole percent, rounded down so 99.9% never reads as complete. */
export function progressPercent(owned: number, total: number): number {
  return total > 0 ? Math.floor((owned * 100) / total) : 0;
}

/** The count a tap leads to: one more or one fewer, within 0..99. */
export function steppedCount(count: number, step: 1 | -1): number {
  return Math.max(0, Math.min(99, count + step));
}

/** A typed count: an integer 0..99 (full-width digits accepted), else null. */
export function parseTypedCount(text: string): number | null {
  const value = text.normalize("NFKC").trim();
  if (!/^\d{1,2}$/.test(value)) return null;
  return Number(value);
}
