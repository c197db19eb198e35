/** Shapes the card APIs return; shared by the server services and the browser components. */

export type CardListItem = {
  id: string;
  name: string;
  nameEn: string;
  rarity: string;
  imageUrl: string;
  number: number | null;
};

/** One hit of `GET /api/cards/search`: the card and the (newest) pack it is shown under. */
export type CardSearchResult = CardListItem & { packId: string; packName: string; packNameEn: string };
