import { readCatalogue } from "./catalogue.server";

/**
 * What the deck rules need to know about a card: whether it is a Pokémon or a trainer card and,
 * for a Pokémon, whether it is a Basic Pokémon. `null` means the catalogue has no such data for
 * the card (cards of sets the package has not described yet, cards added by the CSV import) —
 * callers must say "unknown", never guess.
 *
 * Fossil items (ひみつのコハク, かいのカセキ, …) are listed by the package with stage "basic", but
 * they are items: a fossil is not a Pokémon when the game checks for a Basic Pokémon at setup.
 */
export type CardGameFacts = { kind: "pokemon" | "trainer"; basic: boolean; fossil: boolean };

let facts: Map<string, CardGameFacts> | null = null;

// Read from the vendored catalogue as the seed reads it, so the deck rules and the card pages
// agree on what a card is.
function load(): Map<string, CardGameFacts> {
  const map = new Map<string, CardGameFacts>();
  for (const card of readCatalogue().cards) {
    const id = String(card.id);
    if (card.cardType === "pokemon") {
      if (card.stage) map.set(id, { kind: "pokemon", basic: card.stage === "basic", fossil: false });
    } else if (card.cardType === "fossil") {
      map.set(id, { kind: "trainer", basic: false, fossil: true });
    } else if (card.cardType === "supporter" || card.cardType === "item" || card.cardType === "tool" || card.cardType === "stadium") {
      map.set(id, { kind: "trainer", basic: false, fossil: false });
    }
  }
  return map;
}

/** The game facts of a catalogue card by its id (`A1-096`), or null when unknown. */
export function cardGameFacts(cardId: string): CardGameFacts | null {
  facts ??= load();
  return facts.get(cardId) ?? null;
}

let evolvesFrom: Map<string, string> | null = null;

/** "Charizard ex" → "Charizard"; "Mega Gyarados ex" keeps its Mega (it is its own card). */
export function speciesOf(nameEn: string): string {
  return nameEn.replace(/ ex$/i, "").trim();
}

/**
 * What a Pokémon evolves from, by English species name, from every card the catalogue describes.
 * Newer sets the facts do not describe yet share it through the species: a B3 Charmeleon
 * evolves from Charmander as the A1 one does. Null when unknown or a Basic Pokémon.
 */
export function speciesEvolvesFrom(nameEn: string): string | null {
  if (!evolvesFrom) {
    evolvesFrom = new Map();
    for (const card of readCatalogue().cards) {
      const species = speciesOf(card.nameEn ?? "");
      if (card.evolvesFrom && !evolvesFrom.has(species)) evolvesFrom.set(species, card.evolvesFrom);
    }
  }
  return evolvesFrom.get(speciesOf(nameEn)) ?? null;
}

/** Every species that evolves from this one (Eevee → Vaporeon, Jolteon, …). */
export function speciesEvolvesInto(nameEn: string): string[] {
  speciesEvolvesFrom(nameEn);
  const base = speciesOf(nameEn);
  return [...evolvesFrom!].filter(([, from]) => from === base).map(([species]) => species);
}
