/**
 * Folds text the way Japanese users expect search to: NFKC turns full-width ASCII into
 * half-width and half-width katakana into full-width (ﾋﾟｶ → ピカ), hiragana becomes katakana
 * (ぴかちゅう → ピカチュウ), and Latin letters are lower-cased.
 */
export function foldForSearch(text: string): string {
  return text
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[\u3041-\u3096\u309d\u309e]/g, (ch) => String.fromCharCode(ch.charCodeAt(0) + 0x60))
    .replace(/[’‘`´]/g, "'")
    .replace(/\s+/g, " ")
    .trim();
}
