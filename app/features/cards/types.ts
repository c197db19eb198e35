/** Shapes the card APIs return; shared by the server services and the browser components. */
import type { CardFace } from "./card-face";

/** A card as lists, pickers and search return it: everything its picture is drawn from. */
export type CardListItem = CardFace;

/** One hit of `GET /api/cards/search`: the card and the (newest) pack it is shown under. */
export type CardSearchResult = CardListItem & { packId: string; packName: string; packNameEn: string };
