import type { Db } from "#app/db/client.server.ts";
import { listPacks } from "#app/features/cards/cards.server.ts";
import { listDeckOptions } from "./decks.server";
import type { PackChoice } from "#app/features/decks/components/deck-card-list.tsx";
import type { DeckOption } from "./types";

/** What every deck editor needs besides the deck: the card picker's packs and all decks (related picker). */
export async function deckEditorData(db: Db, locale: "ja" | "en"): Promise<{ packs: PackChoice[]; deckOptions: DeckOption[] }> {
  const [packs, deckOptions] = await Promise.all([listPacks(db), listDeckOptions(db)]);
  return { packs: packs.map((p) => ({ id: p.id, name: locale === "en" ? p.nameEn : p.nameJa })), deckOptions };
}
