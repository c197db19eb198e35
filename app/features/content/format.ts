// The one formatter of editors' text (docs/product-rules.md §9; docs/architecture.md "Content: formatter, uploads, site settings and the SEO head"): markdown-it turns the source
// into HTML and sanitize-html keeps only the allow-list below. It runs unchanged in the browser
// (the editors' live preview) and on the server (the HTML that is stored and served), so what an
// editor previews is what readers get. The syntax is documented in docs/content-format.md.
import markdownIt, { type MarkdownIt, type Token } from "markdown-it";
import cjkFriendly from "markdown-it-cjk-friendly";
import { contentBlockRule, renderContentBlock, type ContentRefs } from "./blocks";
import { japaneseLinkify } from "./linkify";
import { sanitizeContentHtml } from "./sanitize";

export type { ContentRefs } from "./blocks";
export { sanitizeContentHtml } from "./sanitize";

/** What a source refers to: the data the renderer needs looked up before rendering. */
export type ContentRefIds = {
  cards: string[];
  articles: string[];
  decks: string[];
  /** Image URLs (markdown images), for width/height of the files we host. */
  images: string[];
};

function createMarkdown(): MarkdownIt {
  // html: false — raw HTML typed in the source is shown as text, never passed through.
  const md = markdownIt({ html: false, linkify: true, breaks: true, typographer: false });
  // Japanese emphasis: `**「太字」**の直後` is bold too (CommonMark's flanking rules miss it).
  md.use(cjkFriendly);
  md.linkify = japaneseLinkify(md.linkify);
  md.block.ruler.before("paragraph", "content_block", contentBlockRule, { alt: ["paragraph", "reference", "blockquote", "list"] });
  md.renderer.rules.content_block = (tokens, idx, _options, env) => renderContentBlock(tokens[idx], (env ?? {}) as ContentRefs);
  // Images lazy, and with their size when we know it (files we host), so the page does not jump.
  md.renderer.rules.image = (tokens, idx, options, env, self) => {
    const token = tokens[idx];
    token.attrSet("alt", self.renderInlineAsText(token.children ?? [], options, env ?? {}));
    const size = (env as ContentRefs | undefined)?.images?.get(String(token.attrGet("src") ?? ""));
    if (size) {
      token.attrSet("width", String(size.width));
      token.attrSet("height", String(size.height));
    }
    token.attrSet("loading", "lazy");
    token.attrSet("decoding", "async");
    return self.renderToken(tokens, idx, options);
  };
  return md;
}

let markdown: MarkdownIt | null = null;
const md = () => (markdown ??= createMarkdown());

/**
 * Editors' text → safe HTML. `refs` carries what the blocks and images refer to (from
 * `contentRefIds` looked up by the caller: the card index on the server, the API in the
 * browser); anything missing renders as a visible "not found" block, never as broken markup.
 */
export function formatContent(source: string, refs: ContentRefs = {}): string {
  const html = md().render(normaliseSource(source), { ...refs });
  return sanitizeContentHtml(html);
}

/** The cards, related articles/decks and images a source refers to, each once, in order. */
export function contentRefIds(source: string): ContentRefIds {
  const ids = { cards: new Set<string>(), articles: new Set<string>(), decks: new Set<string>(), images: new Set<string>() };
  const walk = (tokens: Token[]) => {
    for (const token of tokens) {
      if (token.type === "content_block") {
        const { kind, ref } = token.meta as { kind: "card" | "article" | "deck"; ref: string };
        ids[kind === "card" ? "cards" : kind === "article" ? "articles" : "decks"].add(ref);
      } else if (token.type === "image") {
        const src = token.attrGet("src");
        if (src) ids.images.add(String(src));
      }
      if (token.children) walk(token.children);
    }
  };
  walk(md().parse(normaliseSource(source), {}));
  return { cards: [...ids.cards], articles: [...ids.articles], decks: [...ids.decks], images: [...ids.images] };
}

/** Line endings from any OS and NUL bytes (never meaningful in text) are settled first. */
function normaliseSource(source: string): string {
  return source.replace(/\r\n?/g, "\n").replace(/\0/g, "\uFFFD");
}
