/** Shapes the card APIs return; shared by the server services and the browser components. */
import type { CardFace } from "#app/lib/card-face.ts";

/** A card as lists, pickers and search return it: everything its picture is drawn from. */
export type CardListItem = CardFace;

/** One hit of `GET /api/cards/search`: the card and the (newest) pack it is shown under. */
export type CardSearchResult = CardListItem & { packId: string; packName: string; packNameEn: string };

/** What the game prints on a Pokémon beyond its face (null where no source describes the card). */
export type CardPlayFacts = {
  weakness: string | null;
  retreatCost: number | null;
  attacks: { cost: string[]; damage: number; suffix?: "+" | "x" }[] | null;
};
