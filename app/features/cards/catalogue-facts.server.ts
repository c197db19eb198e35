import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";

/**
 * Card facts as the game prints them, read from Vociferix/ptcgp-data (catalogue/ptcgp-data/, its
 * SOURCE.md names the commit). One entry is an "abstract card": the rules text shared by every
 * print of it (A1 ゼニガメ and its A4b reprint), with the ids of those prints. Names, attack
 * names and effects are English only in that source, so they stay out: pages show the cost and
 * damage of each attack, never an English sentence.
 */
export type EnergyType = "grass" | "fire" | "water" | "lightning" | "psychic" | "fighting" | "darkness" | "metal" | "dragon" | "colorless";

export type CardAttack = {
  cost: EnergyType[];
  /** Printed damage; 0 for an attack that deals none (its effect does something else). */
  damage: number;
  /** "+" or "x" printed after the damage (more under a condition, per coin, …). */
  suffix?: "+" | "x";
};

export type AbstractCardFacts = {
  /** English name, for evolution lines (evolvesFrom names a species in English). */
  name: string;
  kind: "pokemon" | "supporter" | "item" | "tool" | "stadium";
  element?: EnergyType;
  stage?: "basic" | "stage1" | "stage2";
  hp?: number;
  retreat?: number;
  weakness?: EnergyType;
  ex?: true;
  mega?: true;
  attacks?: CardAttack[];
  evolvesFrom?: string;
  /** Card ids (`A1-001`, `PROMO-A-029`) of every print sharing these facts. */
  prints: string[];
};

type UpstreamCard = {
  name: string;
  card_type: string;
  trainer_kind?: string;
  element?: string;
  stage?: string;
  hp?: number;
  retreat_cost?: number;
  weakness?: string | null;
  is_ex?: boolean;
  is_mega?: boolean;
  attacks?: { cost: string[]; damage: number; damage_suffix?: string | null }[];
  evolves_from?: string;
  versions: { set: string; number: number }[];
};

const ENERGY: Record<string, EnergyType> = {
  grass: "grass",
  fire: "fire",
  water: "water",
  lightning: "lightning",
  psychic: "psychic",
  fighting: "fighting",
  darkness: "darkness",
  metal: "metal",
  dragon: "dragon",
  colorless: "colorless",
};

function energy(value: string | null | undefined, where: string): EnergyType | undefined {
  if (value == null) return undefined;
  const type = ENERGY[value.toLowerCase()];
  if (!type) throw new Error(`${where}: unknown energy type ${value}`);
  return type;
}

/** Our card id for a print: ptcgp-data writes promo sets P-A, P-B; the catalogue PROMO-A, PROMO-B. */
export function printId(set: string, number: number): string {
  const code = /^P-([A-Z])$/.exec(set) ? `PROMO-${set.slice(2)}` : set;
  return `${code}-${String(number).padStart(3, "0")}`;
}

const STAGES: Record<string, AbstractCardFacts["stage"]> = { Basic: "basic", "Stage 1": "stage1", "Stage 2": "stage2" };
const KINDS: Record<string, AbstractCardFacts["kind"]> = { Supporter: "supporter", Item: "item", Tool: "tool", Stadium: "stadium" };

function fromUpstream(card: UpstreamCard, where: string): AbstractCardFacts {
  const prints = card.versions.map((v) => printId(v.set, v.number));
  if (card.card_type !== "pokemon") {
    const kind = KINDS[card.trainer_kind ?? ""];
    if (!kind) throw new Error(`${where}: unknown trainer kind ${card.trainer_kind}`);
    return { name: card.name, kind, prints };
  }
  const facts: AbstractCardFacts = { name: card.name, kind: "pokemon", prints };
  facts.element = energy(card.element, where);
  if (card.stage) facts.stage = STAGES[card.stage];
  if (card.hp != null) facts.hp = card.hp;
  if (card.retreat_cost != null) facts.retreat = card.retreat_cost;
  const weakness = energy(card.weakness, where);
  if (weakness) facts.weakness = weakness;
  if (card.is_ex) facts.ex = true;
  if (card.is_mega) facts.mega = true;
  if (card.evolves_from) facts.evolvesFrom = card.evolves_from;
  facts.attacks = (card.attacks ?? []).map((a) => {
    const attack: CardAttack = { cost: a.cost.map((c) => energy(c, where)!), damage: a.damage };
    if (a.damage_suffix === "+" || a.damage_suffix === "x") attack.suffix = a.damage_suffix;
    return attack;
  });
  return facts;
}

/** Reads an unpacked ptcgp-data checkout (its data/cards/*.json). */
export function readUpstreamFacts(dir: string): AbstractCardFacts[] {
  const cardsDir = path.join(dir, "data/cards");
  return readdirSync(cardsDir)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((f) => fromUpstream(JSON.parse(readFileSync(path.join(cardsDir, f), "utf8")) as UpstreamCard, `data/cards/${f}`));
}

/** The compacted file: a JSON array, one card a line, so a newer copy diffs card by card. */
export function compactFactsFile(facts: AbstractCardFacts[]): string {
  return `[\n${facts.map((f) => JSON.stringify(f)).join(",\n")}\n]\n`;
}

/**
 * The facts of a vendored folder: the compacted cards.json, or an upstream checkout dropped in
 * as it is (data/cards/). A folder with neither has no facts (the catalogue still loads).
 */
export function readFactsFolder(dir: string): AbstractCardFacts[] {
  const compact = path.join(dir, "cards.json");
  if (existsSync(compact)) return JSON.parse(readFileSync(compact, "utf8")) as AbstractCardFacts[];
  if (existsSync(path.join(dir, "data/cards"))) return readUpstreamFacts(dir);
  return [];
}
