/**
 * Checks a Japanese card name's kana reading against the romanised name the catalogue's image
 * file carries (`cPK_10_000010_00_FUSHIGIDANE_C.webp` → FUSHIGIDANE). The catalogue does not
 * romanise by one system: it writes シ as SHI or SI, ジャ as JA or JYA, ラ行 with R or L, drops a
 * long vowel or spells it out, and doubles consonants for ッ. A reading matches when some
 * choice of those spellings gives the token exactly; anything further apart is a known
 * spelling difference that `KNOWN_SPELLINGS` (names-ja.ts) lists one by one.
 */

const VOWELS: Record<string, string> = {
  ア: "a", イ: "i", ウ: "u", エ: "e", オ: "o",
};

// Base spellings of each katakana; every spelling is a regular-expression fragment.
const MORAS: Record<string, string[]> = {
  ア: ["a"], イ: ["i", "y"], ウ: ["u", "w"], エ: ["e"], オ: ["o"],
  カ: ["ka", "ca"], キ: ["ki"], ク: ["ku", "k", "c", "q"], ケ: ["ke"], コ: ["ko", "co"],
  ガ: ["ga"], ギ: ["gi"], グ: ["gu", "g"], ゲ: ["ge"], ゴ: ["go"],
  サ: ["sa"], シ: ["shi", "si", "sy", "ci"], ス: ["su", "s"], セ: ["se", "ce"], ソ: ["so"],
  ザ: ["za"], ジ: ["ji", "zi"], ズ: ["zu", "z"], ゼ: ["ze"], ゾ: ["zo"],
  タ: ["ta"], チ: ["chi", "ti", "ch"], ツ: ["tsu", "tu", "ts"], テ: ["te"], ト: ["to", "t"],
  ダ: ["da"], ヂ: ["di", "ji", "zi"], ヅ: ["du", "zu"], デ: ["de"], ド: ["do", "d"],
  ナ: ["na"], ニ: ["ni"], ヌ: ["nu"], ネ: ["ne"], ノ: ["no"],
  ハ: ["ha"], ヒ: ["hi"], フ: ["fu", "hu", "f"], ヘ: ["he"], ホ: ["ho"],
  バ: ["ba", "va"], ビ: ["bi", "vi"], ブ: ["bu", "b"], ベ: ["be", "ve"], ボ: ["bo", "vo"],
  パ: ["pa"], ピ: ["pi"], プ: ["pu", "p"], ペ: ["pe"], ポ: ["po"],
  マ: ["ma"], ミ: ["mi"], ム: ["mu", "m"], メ: ["me"], モ: ["mo"],
  ヤ: ["ya"], ユ: ["yu"], ヨ: ["yo"],
  ラ: ["ra", "la"], リ: ["ri", "li"], ル: ["ru", "lu", "r", "l"], レ: ["re", "le"], ロ: ["ro", "lo"],
  ワ: ["wa"], ヲ: ["wo", "o"], ン: ["n", "m"], ヴ: ["vu", "bu", "v"],
};

// Two-kana sounds (small ャ ュ ョ ァ ィ ゥ ェ ォ).
const DIGRAPHS: Record<string, string[]> = {
  キャ: ["kya"], キュ: ["kyu"], キョ: ["kyo"], ギャ: ["gya"], ギュ: ["gyu"], ギョ: ["gyo"],
  シャ: ["sha", "sya"], シュ: ["shu", "syu"], ショ: ["sho", "syo"], シェ: ["she", "sye"],
  ジャ: ["ja", "jya", "zya"], ジュ: ["ju", "jyu", "zyu"], ジョ: ["jo", "jyo", "zyo"], ジェ: ["je", "jye"],
  チャ: ["cha", "tya"], チュ: ["chu", "tyu"], チョ: ["cho", "tyo"], チェ: ["che"],
  ニャ: ["nya"], ニュ: ["nyu"], ニョ: ["nyo"], ヒャ: ["hya"], ヒュ: ["hyu"], ヒョ: ["hyo"],
  ビャ: ["bya"], ビュ: ["byu"], ビョ: ["byo"], ピャ: ["pya"], ピュ: ["pyu"], ピョ: ["pyo"],
  ミャ: ["mya"], ミュ: ["myu"], ミョ: ["myo"],
  リャ: ["rya", "lya"], リュ: ["ryu", "lyu"], リョ: ["ryo", "lyo"],
  ファ: ["fa"], フィ: ["fi"], フェ: ["fe"], フォ: ["fo"], フュ: ["fyu", "fu", "hu"],
  ティ: ["ti", "thi"], ディ: ["di", "dhi"], トゥ: ["tu", "tou"], ドゥ: ["du", "dou"],
  ウィ: ["wi", "ui"], ウェ: ["we", "ue"], ウォ: ["wo", "uo"],
  ヴァ: ["va", "bua"], ヴィ: ["vi", "bui"], ヴェ: ["ve", "bue"], ヴォ: ["vo", "buo"],
  ツァ: ["tsa"], ツィ: ["tsi"], ツェ: ["tse"], ツォ: ["tso"],
  イェ: ["ye"], クァ: ["kwa", "qua"], グァ: ["gwa"],
};

// Signs a reading may contain that the catalogue's tokens leave out (カプ・コケコ, ニドラン♀, 10％).
const SILENT = /[\s・=：:♀♂%()]/g;

const SMALL_VOWEL: Record<string, string> = { ァ: "a", ィ: "i", ゥ: "u", ェ: "e", ォ: "o" };

/** Hiragana → katakana; other characters unchanged. */
export function toKatakana(text: string): string {
  return text.replace(/[\u3041-\u3096]/g, (ch) => String.fromCharCode(ch.charCodeAt(0) + 0x60));
}

/** Katakana → hiragana (ー and symbols unchanged): the form readings are stored in. */
export function toHiragana(text: string): string {
  return text.replace(/[\u30a1-\u30f6]/g, (ch) => String.fromCharCode(ch.charCodeAt(0) - 0x60));
}

function lastVowel(spellings: string[]): string {
  const v = /[aeiou]$/.exec(spellings[0]);
  return v ? v[0] : "";
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\-]/g, "\\$&");
const alt = (list: string[]) => `(?:${[...new Set(list)].map(escape).join("|")})`;

/** The regular expression that every acceptable romanisation of `reading` matches, or null. */
export function romanisationPattern(reading: string): RegExp | null {
  const kana = toKatakana(reading).normalize("NFKC").replace(SILENT, "");
  const parts: string[] = [];
  let previous: string[] = [];
  for (let i = 0; i < kana.length; ) {
    const pair = kana.slice(i, i + 2);
    const ch = kana[i];
    let spellings: string[];
    if (DIGRAPHS[pair]) {
      spellings = DIGRAPHS[pair];
      i += 2;
    } else if (ch === "ッ") {
      // Doubled consonant of the next sound (ッカ → kka), or written as T or not at all.
      const next = DIGRAPHS[kana.slice(i + 1, i + 3)] ?? MORAS[kana[i + 1]] ?? [];
      const consonants = next.map((s) => s[0]).filter((c) => !"aeiou".includes(c));
      spellings = [...consonants, "t", "c", ""];
      i += 1;
    } else if (ch === "ー") {
      // A long vowel: not written, written twice, or English-style (ー after a/e/o as R, after o as U/H).
      const v = lastVowel(previous);
      spellings = ["", v, "h", ...(v === "a" || v === "e" || v === "o" ? ["r"] : []), ...(v === "o" ? ["u"] : []), ...(v === "i" ? ["e"] : [])];
      i += 1;
    } else if (SMALL_VOWEL[ch]) {
      spellings = [SMALL_VOWEL[ch]];
      i += 1;
    } else if (ch === "ウ" && lastVowel(previous) === "o") {
      // おう as O, OU or OH.
      spellings = ["u", "h", ""];
      i += 1;
    } else if (VOWELS[ch] && lastVowel(previous) === VOWELS[ch]) {
      // A doubled vowel (イイ, オオ) may be written once.
      spellings = [VOWELS[ch], ""];
      i += 1;
    } else if (MORAS[ch]) {
      spellings = MORAS[ch];
      i += 1;
    } else if (/[A-Za-z0-9]/.test(ch)) {
      spellings = [ch.toLowerCase()];
      i += 1;
    } else {
      return null;
    }
    parts.push(alt(spellings));
    previous = spellings;
  }
  return new RegExp(`^${parts.join("")}$`);
}

/** The catalogue token of an image file name (`cTR_10_000120_00_KASUMI_U.webp` → KASUMI), or null. */
export function romanisedToken(imageFile: string): string | null {
  const m = /^c(?:PK|TR)_\d+_\d+_\d+_(.+)_[A-Z]+\.webp$/.exec(imageFile);
  return m ? m[1] : null;
}

/** The token compared with a reading: lower case, without spaces, hyphens and the ex marker. */
export function comparableToken(token: string): string {
  return decodeToken(token)
    .replace(/ex$/, "")
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[^a-z0-9]/g, "");
}

/** Image file names percent-encode signs (`NIDORAN%E2%99%80`, `ZYGARDE10%EF%BC%85FORME`). */
export function decodeToken(token: string): string {
  try {
    return decodeURIComponent(token);
  } catch {
    return token;
  }
}

/** True when `reading` (kana) romanises to the catalogue token by one of the accepted spellings. */
export function readingMatchesToken(reading: string, token: string): boolean {
  const pattern = romanisationPattern(reading);
  return pattern !== null && pattern.test(comparableToken(token));
}

/**
 * Consonant outline of a romanised name, for the catalogue's English-style spellings of
 * Japanese names (FREEZER for フリーザー, LAPLACE for ラプラス, CATERPIE for キャタピー):
 * vowels, H, W and Y go, C before E/I/Y is an S, sounds the two spellings confuse fall together (R/L, B/V, C/K/Q,
 * S/Z/J/TH/CH, F/P), and doubled letters count once.
 */
export function consonantOutline(romanised: string): string {
  return romanised
    .toLowerCase()
    .replace(/th|ch|sh|ts/g, "s")
    .replace(/c(?=[eiy])/g, "s")
    .replace(/ph/g, "f")
    .replace(/x/g, "ks")
    .replace(/[aeiouhwy]/g, "")
    .replace(/l/g, "r")
    .replace(/v/g, "b")
    .replace(/[cq]/g, "k")
    .replace(/[zj]/g, "s")
    .replace(/p/g, "f")
    .replace(/[^a-z0-9]/g, "")
    .replace(/(.)\1+/g, "$1");
}

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const next = Math.min(row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = row[j];
      row[j] = next;
    }
  }
  return row[b.length];
}

/** One plain Hepburn spelling of a kana reading (the first choice of each sound). */
export function hepburn(reading: string): string {
  const kana = toKatakana(reading).normalize("NFKC").replace(SILENT, "");
  let out = "";
  for (let i = 0; i < kana.length; ) {
    const pair = DIGRAPHS[kana.slice(i, i + 2)];
    if (pair) {
      out += pair[0];
      i += 2;
      continue;
    }
    const ch = kana[i];
    out += MORAS[ch]?.[0] ?? SMALL_VOWEL[ch] ?? (/[A-Za-z0-9]/.test(ch) ? ch.toLowerCase() : "");
    i += 1;
  }
  return out;
}

export type TokenMatch = "exact" | "outline" | "none";

/**
 * How `reading` matches `token`: "exact" through an accepted spelling of every sound, "outline"
 * when their consonant outlines are equal or differ by one sound (only when both are at least
 * two long, so a one-sound name cannot pass by chance), "none" otherwise.
 */
export function matchReading(reading: string, token: string): TokenMatch {
  if (readingMatchesToken(reading, token)) return "exact";
  const a = consonantOutline(hepburn(reading));
  const b = consonantOutline(comparableToken(token));
  if (a === b && a.length >= 1) return "outline";
  if (Math.min(a.length, b.length) >= 2 && editDistance(a, b) <= 1) return "outline";
  return "none";
}
