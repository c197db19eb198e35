import type { LinkifyIt } from "linkify-it";

type Match = NonNullable<ReturnType<LinkifyIt["matchAtStart"]>>;

// A URL is printable ASCII. Japanese text does not put spaces around URLs, so
// `詳しくはhttps://example.com/news/1を参照` must link only the URL: linkify-it alone would take
// `を参照` into the path (it accepts any Unicode letter there) and, depending on the rule, refuse a
// URL glued to the preceding `は`. Matching only inside runs of printable ASCII ends a URL at the
// first Japanese character, full-width space or full-width punctuation.
const ASCII_RUN = /[\x21-\x7e]+/g;

function shifted(match: Match, offset: number): Match {
  return { ...match, index: match.index + offset, lastIndex: match.lastIndex + offset } as Match;
}

/**
 * Wraps markdown-it's linkify-it instance so that both of markdown-it's linkify rules (the core
 * one over text and the inline one at `://`) see only ASCII runs. linkify-it still decides what a
 * link is (schemes, hosts, top-level domains, balanced brackets).
 */
export function japaneseLinkify(base: LinkifyIt): LinkifyIt {
  // A bare e-mail address in an article is more often text than an invitation to write.
  base.set({ fuzzyEmail: false });
  const matchAll = (text: string): Match[] | null => {
    const found: Match[] = [];
    for (const run of text.matchAll(ASCII_RUN)) {
      const matches = base.match(run[0]);
      if (matches) for (const match of matches) found.push(shifted(match, run.index));
    }
    return found.length > 0 ? found : null;
  };
  const wrapper = Object.create(base) as LinkifyIt;
  wrapper.test = (text: string) => matchAll(text) !== null;
  wrapper.match = matchAll;
  wrapper.matchAtStart = (text: string) => {
    const run = /^[\x21-\x7e]+/.exec(text);
    return run ? base.matchAtStart(run[0]) : null;
  };
  return wrapper;
}
