import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

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

type ExtraCard = { set: string; number: number; type?: string; stage?: string | number | null };

let facts: Map<string, CardGameFacts> | null = null;

function load(): Map<string, CardGameFacts> {
  const rows = require("pokemon-tcg-pocket-database/dist/cards.extra.json") as ExtraCard[];
  const map = new Map<string, CardGameFacts>();
  for (const row of rows) {
    const type = row.type?.toLowerCase();
    if (!type) continue;
    const id = `${row.set}-${String(row.number).padStart(3, "0")}`;
    if (type === "pokemon") {
      // The package writes the Basic stage as "basic" (and 0 in newer sets); 1 and 2 evolve.
      const stage = row.stage;
      if (stage === undefined || stage === null) continue;
      map.set(id, { kind: "pokemon", basic: stage === "basic" || stage === 0, fossil: false });
    } else if (type === "fossil") {
      map.set(id, { kind: "trainer", basic: false, fossil: true });
    } else if (type === "supporter" || type === "item" || type === "tool") {
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

type EvolutionRow = { name: string; evolvesFrom?: string };
let evolvesFrom: Map<string, string> | null = null;

/** "Charizard ex" → "Charizard"; "Mega Gyarados ex" keeps its Mega (it is its own card). */
export function speciesOf(nameEn: string): string {
  return nameEn.replace(/ ex$/i, "").trim();
}

/**
 * What a Pokémon evolves from, by English species name, from every card the package describes.
 * Newer sets the package has not described yet share it through the species: a B3 Charmeleon
 * evolves from Charmander as the A1 one does. Null when unknown or a Basic Pokémon.
 */
export function speciesEvolvesFrom(nameEn: string): string | null {
  if (!evolvesFrom) {
    const rows = require("pokemon-tcg-pocket-database/dist/cards.extra.json") as EvolutionRow[];
    evolvesFrom = new Map();
    for (const row of rows) if (row.evolvesFrom && !evolvesFrom.has(speciesOf(row.name))) evolvesFrom.set(speciesOf(row.name), row.evolvesFrom);
  }
  return evolvesFrom.get(speciesOf(nameEn)) ?? null;
}

/** Every species that evolves from this one (Eevee → Vaporeon, Jolteon, …). */
export function speciesEvolvesInto(nameEn: string): string[] {
  speciesEvolvesFrom(nameEn);
  const base = speciesOf(nameEn);
  return [...evolvesFrom!].filter(([, from]) => from === base).map(([species]) => species);
}
