import sanitizeHtml from "sanitize-html";

// The allow-list every piece of formatted HTML passes, when it is made and again when stored HTML
// is served (docs/architecture.md "Content: formatter, uploads, site settings and the SEO head"): what the formatter produces and nothing else. No scripts, no event
// handlers, no styles, no frames or SVG; links and images only to http(s) or our own paths.
const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [
    "p", "br", "h1", "h2", "h3", "strong", "em", "s", "a", "img", "pre", "code", "blockquote", "hr",
    "ul", "ol", "li", "table", "thead", "tbody", "tr", "th", "td", "aside", "span", "time",
  ],
  allowedAttributes: {
    a: ["href", "title", "target", "rel", "class"],
    img: ["src", "alt", "title", "width", "height", "loading", "decoding", "class"],
    aside: ["class", "aria-label"],
    span: ["class", "aria-hidden"],
    time: ["class", "datetime"],
    code: ["class"],
    ol: ["start"],
  },
  allowedClasses: {
    a: ["content-card-link", "content-related-link"],
    img: ["content-card-image", "content-related-thumb", "content-card-type-*"],
    aside: ["content-card", "content-card-missing", "content-related", "content-related-missing"],
    span: [
      "content-card-placeholder", "content-card-type-*", "content-card-name", "content-card-rarity", "content-related-thumb",
      "content-related-body", "content-related-kind", "content-related-title",
    ],
    time: ["content-related-date"],
    code: ["language-*"],
  },
  // data: is refused everywhere (an image we host is a URL), and so is every scheme not listed.
  allowedSchemes: ["http", "https", "mailto"],
  allowedSchemesByTag: { img: ["http", "https"] },
  allowedSchemesAppliedToAttributes: ["href", "src"],
  allowProtocolRelative: false,
  disallowedTagsMode: "discard",
  // Headings 1 to 3 (docs/product-rules.md §9): deeper ones become h3 rather than disappearing.
  transformTags: {
    h4: "h3",
    h5: "h3",
    h6: "h3",
    // docs/product-rules.md §2: links open in a new tab without access to this page.
    a: (tagName, attribs) => ({ tagName, attribs: { ...attribs, target: "_blank", rel: "noopener noreferrer" } }),
    img: (tagName, attribs) => ({ tagName, attribs: { ...attribs, loading: "lazy", decoding: "async" } }),
  },
  exclusiveFilter: (frame) =>
    // An image whose src was refused is dropped whole, not left as a broken <img>.
    (frame.tag === "img" && !frame.attribs.src) ||
    // So is a width/height that is not a plain number.
    (frame.tag === "img" && [frame.attribs.width, frame.attribs.height].some((v) => v !== undefined && !/^\d{1,5}$/.test(v))),
};

/** Keeps only the formatter's allow-list of `html` (also for HTML stored earlier). */
export function sanitizeContentHtml(html: string): string {
  return sanitizeHtml(html, OPTIONS);
}
