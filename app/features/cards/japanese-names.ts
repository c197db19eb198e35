import { FORM_NAMES, KNOWN_SPELLINGS, TRAINER_NAMES } from "./names-ja";
import { decodeToken, matchReading, toHiragana } from "./romanisation";

export type NameCheck = "exact" | "outline" | "known";

export type ResolvedName = {
  /** The Japanese name, or the English one when no Japanese name could be verified. */
  name: string;
  /** Kana reading of the Japanese name; empty when the name stayed English. */
  reading: string;
  /** How the reading was checked against the catalogue's romanised token; null when English. */
  check: NameCheck | null;
  /** Where the candidate came from: species table, form table, trainer table, or none. */
  source: "species" | "form" | "trainer" | null;
};

const EX = /ex$/;

/** How a reading is accepted for a token, or null when it is not. */
export function checkReading(reading: string, token: string): NameCheck | null {
  const match = matchReading(reading, token);
  if (match !== "none") return match;
  const known = KNOWN_SPELLINGS[decodeToken(token).replace(EX, "")];
  return known !== undefined && known === reading.replace(EX, "") ? "known" : null;
}

/** The reading of a katakana/hiragana card name: hiragana, without the ex marker. */
export function readingOf(name: string): string {
  return toHiragana(name.replace(EX, ""));
}

/**
 * The Japanese name of one catalogue card: from the form or trainer table by the image file's
 * token, else the species name derived from the English one; kept only when its reading
 * matches the token.
 */
export function resolveJapaneseName(input: {
  token: string | null;
  english: string;
  trainer: boolean;
  speciesName: (english: string) => string;
}): ResolvedName {
  const english: ResolvedName = { name: input.english, reading: "", check: null, source: null };
  if (!input.token) return english;
  const key = decodeToken(input.token).replace(EX, "");
  const ex = EX.test(input.token) || / ex$/i.test(input.english) ? "ex" : "";
  let candidate: { name: string; reading: string; source: ResolvedName["source"] } | null = null;
  const table = input.trainer ? TRAINER_NAMES[key] : FORM_NAMES[key];
  if (table) {
    candidate = { name: table[0] + (input.trainer ? "" : ex), reading: table[1], source: input.trainer ? "trainer" : "form" };
  } else if (!input.trainer) {
    const derived = input.speciesName(input.english);
    if (derived !== input.english) candidate = { name: derived, reading: readingOf(derived), source: "species" };
  }
  if (!candidate) return english;
  const check = checkReading(candidate.reading, input.token);
  return check ? { ...candidate, check } : english;
}
