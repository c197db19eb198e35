// SEO suggestions without an AI provider (docs/product-rules.md §7 says the seed's AI generation always fails):
// keywords are the card and Pokémon names a text mentions plus its most frequent content words,
// and the meta description is the text's first meaningful sentences, cut at a boundary.
import { createRequire } from "node:module";
import { eq } from "drizzle-orm";
import type { Db } from "#app/db/client.server.ts";
import { decks } from "#app/db/schema/decks.ts";
import { foldForSearch } from "#app/lib/search-text.ts";
import { cardIndex, type CardIndex } from "#app/features/cards/card-index.server.ts";

/** The suggested description aims for this length (what search results show)… */
export const SUGGESTED_DESCRIPTION_LENGTH = 120;
/** …and never passes the meta description limit (docs/product-rules.md §9). */
export const META_DESCRIPTION_MAX = 200;
export const MAX_KEYWORDS = 10;

export type SeoSuggestion = { keywords: string[]; metaDescription: string };

type NameDictionary = { byBigram: Map<string, { folded: string; name: string }[]> };

const require = createRequire(import.meta.url);
let pokemonNames: string[] | null = null;
const dictionaries = new WeakMap<CardIndex, NameDictionary>();

/**
 * Card names (ピカチュウex) and Pokémon names (ピカチュウ) folded the way search folds them, so
 * ぴかちゅう, ﾋﾟｶﾁｭｳ and ピカチュウ all match. Indexed by their first two folded characters.
 */
function nameDictionary(index: CardIndex): NameDictionary {
  const cached = dictionaries.get(index);
  if (cached) return cached;
  pokemonNames ??= require("pokemon/data/ja.json") as string[];
  const byBigram = new Map<string, { folded: string; name: string }[]>();
  const seen = new Set<string>();
  const add = (name: string) => {
    const folded = foldForSearch(name);
    if (folded.length < 2 || seen.has(folded)) return;
    seen.add(folded);
    const key = folded.slice(0, 2);
    const list = byBigram.get(key);
    if (list) list.push({ folded, name });
    else byBigram.set(key, [{ folded, name }]);
  };
  for (const card of index.cards) add(card.name);
  for (const name of pokemonNames) add(name);
  // Longest first: ピカチュウex wins over ピカチュウ at the same place.
  for (const list of byBigram.values()) list.sort((a, b) => b.folded.length - a.folded.length);
  const dictionary = { byBigram };
  dictionaries.set(index, dictionary);
  return dictionary;
}

/** Public deck names, folded like the card names (read per suggestion: decks are renamed often). */
async function deckNameDictionary(db: Db): Promise<NameDictionary> {
  const rows = await db.select({ name: decks.name }).from(decks).where(eq(decks.isPublic, true));
  const byBigram = new Map<string, { folded: string; name: string }[]>();
  for (const { name } of rows) {
    const folded = foldForSearch(name);
    if (folded.length < 2) continue;
    const key = folded.slice(0, 2);
    byBigram.set(key, [...(byBigram.get(key) ?? []), { folded, name }]);
  }
  for (const list of byBigram.values()) list.sort((a, b) => b.folded.length - a.folded.length);
  return { byBigram };
}

/**
 * Names mentioned in `folded` text, with how often: at each place the longest name of any of the
 * dictionaries (a deck named after its Pokémon wins over the Pokémon), no overlaps.
 */
function findNames(folded: string, dictionaries: readonly NameDictionary[]): Map<string, number> {
  const found = new Map<string, number>();
  for (let i = 0; i < folded.length - 1; ) {
    const key = folded.slice(i, i + 2);
    const hit = dictionaries
      .map((dictionary) => dictionary.byBigram.get(key)?.find((c) => folded.startsWith(c.folded, i)))
      .filter((c) => c !== undefined)
      .sort((a, b) => b.folded.length - a.folded.length)[0];
    if (hit) {
      found.set(hit.name, (found.get(hit.name) ?? 0) + 1);
      i += hit.folded.length;
    } else {
      i++;
    }
  }
  return found;
}

// Function words and generic nouns that say nothing about an article.
const STOP_WORDS = new Set(
  [
    "こと もの ため よう これ それ あれ ここ そこ どこ この その あの 場合 今回 以下 以上 方法 自分 必要 可能 ところ とき 時 的 さん 記事 について です ます する した して いる ある なる できる また さらに",
    "同じ 向け 向き 以外 全て 全部 一番 一つ 二つ 最初 最後 今日 今週 今後 次回 前回 他 方 中 後 前 上 下 際 点 感じ 部分 全体 多く 少し 簡単 大切 重要 可能性 おすすめ 紹介 解説 説明 確認 注意 使用 利用 意味 状態 場面 相手 今 次 本当 基本",
  ]
    .join(" ")
    .split(" "),
);
const HIRAGANA_ONLY = /^[\u3041-\u309f]+$/;
// A kanji stem with its kana ending is a verb or adjective form (使う, 強い, 同じ, 向け), not a topic.
const INFLECTED = /^\p{Script=Han}{1,2}[\u3041-\u309f]{1,3}$/u;
const MEANINGFUL = /[\p{Script=Han}\p{Script=Katakana}\p{L}]/u;

/** Content words by frequency (Intl.Segmenter splits Japanese into words without a dictionary). */
function frequentWords(text: string): Map<string, number> {
  const segmenter = new Intl.Segmenter("ja", { granularity: "word" });
  const counts = new Map<string, number>();
  for (const { segment, isWordLike } of segmenter.segment(text)) {
    if (!isWordLike) continue;
    const word = segment.normalize("NFKC").trim();
    if (word.length < 2 || word.length > 30 || HIRAGANA_ONLY.test(word) || INFLECTED.test(word) || !MEANINGFUL.test(word) || STOP_WORDS.has(word) || /^\d+$/.test(word)) continue;
    const key = /^[a-z]/i.test(word) ? word.toLowerCase() : word;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

/** The editors' text as plain sentences: no block lines, code, images, URLs or markup characters. */
export function plainText(source: string): string {
  return source
    .replace(/\r\n?/g, "\n")
    .replace(/^\s*(```|~~~)[\s\S]*?^\s*\1.*$/gm, "")
    .replace(/^\s*[[［]{2}.*[\]］]{2}\s*$/gm, "")
    .replace(/!\[[^\]]*\]\([^)]*\)/g, "")
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/https?:\/\/[\x21-\x7e]+/g, "")
    .replace(/^\s{0,3}(#{1,6}|>|[-*+]|\d+[.)])\s+/gm, "")
    .replace(/[*_~`]+/g, "")
    .replace(/[ \t\u3000]+/g, " ")
    .trim();
}

/** Sentences ending in 。！？!? (or a line end), each with its ending. */
function sentences(text: string): string[] {
  return (text.match(/[^。！？!?\n]+[。！？!?]*/g) ?? []).map((s) => s.trim()).filter(Boolean);
}

/** Where `text` may be cut: the ends of its words (Intl.Segmenter), never inside one. */
function wordEnds(text: string): number[] {
  const segmenter = new Intl.Segmenter("ja", { granularity: "word" });
  return [...segmenter.segment(text)].map(({ index, segment }) => index + segment.length);
}

/**
 * At most `limit` characters, cut after the last clause mark (、，,；;：:) that fits, else at the
 * last word end that fits, with an ellipsis; a word is never cut in two.
 */
function cutAtClause(sentence: string, limit: number): string {
  if (sentence.length <= limit) return sentence;
  const head = sentence.slice(0, limit);
  const cut = Math.max(...["、", "，", ",", "；", ";", "：", ":", "）", ")", " "].map((mark) => head.lastIndexOf(mark)));
  if (cut >= limit / 3) return `${head.slice(0, head[cut] === " " ? cut : cut + 1).trim()}…`.replace(/[、，,；;：:]…$/, "…");
  const end = Math.max(0, ...wordEnds(sentence).filter((index) => index <= limit - 1));
  // One word longer than the whole limit (a URL-like run) is the only thing cut by characters.
  return `${sentence.slice(0, end > 0 ? end : limit - 1).trimEnd()}…`;
}

const JAPANESE = /[\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Han}]/u;
// A line that only introduces what follows (おすすめカード:) says nothing once its block is gone.
const LABEL_LINE = /^[^\n。！？!?]*[:：]\s*$/gm;

/**
 * The first meaningful sentences up to SUGGESTED_DESCRIPTION_LENGTH characters, whole sentences
 * where they fit; a first sentence that is too long alone is cut at a clause boundary.
 */
export function suggestDescription(title: string, content: string): string {
  // Headings name a section; they are not sentences of it.
  const body = content.replace(/^\s{0,3}#{1,6}\s.*$/gm, "");
  const all = sentences(plainText(body).replace(LABEL_LINE, ""))
    .filter((s) => [...s].length >= 8 && MEANINGFUL.test(s))
    // A line without an ending still ends there: 。 in Japanese, a full stop in other text.
    .map((s) => (/[。！？!?]$/.test(s) ? s : JAPANESE.test(s) ? `${s}。` : `${s}. `));
  if (all.length === 0) return cutAtClause(title.trim(), SUGGESTED_DESCRIPTION_LENGTH);
  let description = "";
  for (const sentence of all) {
    const next = description + sentence;
    if (next.length > SUGGESTED_DESCRIPTION_LENGTH) break;
    description = next;
  }
  return (description.trim() || cutAtClause(all[0], SUGGESTED_DESCRIPTION_LENGTH)).slice(0, META_DESCRIPTION_MAX);
}

/**
 * Keywords: public deck, card and Pokémon names first (most mentioned first), then the most
 * frequent content words (no particles, function words or verb and adjective forms).
 */
export async function suggestSeo(db: Db, input: { title: string; content: string }): Promise<SeoSuggestion> {
  const text = `${input.title}\n${plainText(input.content)}`;
  const dictionaries = [await deckNameDictionary(db), nameDictionary(await cardIndex(db))];
  const names = [...findNames(foldForSearch(text), dictionaries)].sort((a, b) => b[1] - a[1]).map(([name]) => name);
  const foldedNames = names.map(foldForSearch);
  const words = [...frequentWords(text)]
    .filter(([word, n]) => n >= 2 || input.title.includes(word))
    .sort((a, b) => b[1] - a[1] || b[0].length - a[0].length)
    .map(([word]) => word)
    // A word that is part of a name already listed adds nothing (ピカチュウ under ピカチュウex).
    .filter((word) => !foldedNames.some((name) => name.includes(foldForSearch(word))));
  const keywords = [...new Set([...names, ...words])].slice(0, MAX_KEYWORDS);
  return { keywords, metaDescription: suggestDescription(input.title, input.content) };
}
