import { describe, expect, it } from "vitest";
import { canonicalUrl, seoMeta, type SiteHead } from "./seo";

const site: SiteHead = {
  url: "https://torepoke.example",
  settings: { metaDescription: "サイトの説明", seoKeywords: "ポケポケ, トレード", ogTitle: "OGタイトル", ogDescription: "OG説明", ogImage: "/uploads/og/1-a-1200x630.webp" },
};
const args = (pathname: string, settings: Partial<SiteHead["settings"]> = {}) => ({
  location: { pathname },
  matches: [{ id: "root", loaderData: { locale: "ja", site: { ...site, settings: { ...site.settings, ...settings } } } }],
});
const find = (meta: ReturnType<typeof seoMeta>, predicate: (m: Record<string, unknown>) => boolean) => meta.find((m) => predicate(m as Record<string, unknown>)) as Record<string, unknown> | undefined;
const content = (meta: ReturnType<typeof seoMeta>, key: string) => find(meta, (m) => m.name === key || m.property === key)?.content;

describe("seoMeta", () => {
  it("gives the home page the site's settings, a canonical URL and WebSite JSON-LD with a SearchAction", () => {
    const meta = seoMeta(args("/"));
    expect(find(meta, (m) => "title" in m)?.title).toBe("トレポケ - ポケポケのトレード掲示板・カードデータベース");
    expect(content(meta, "description")).toBe("サイトの説明");
    expect(content(meta, "keywords")).toBe("ポケポケ, トレード");
    expect(find(meta, (m) => m.rel === "canonical")?.href).toBe("https://torepoke.example/");
    expect(content(meta, "og:title")).toBe("OGタイトル");
    expect(content(meta, "og:description")).toBe("OG説明");
    expect(content(meta, "og:url")).toBe("https://torepoke.example/");
    expect(content(meta, "og:image")).toBe("https://torepoke.example/uploads/og/1-a-1200x630.webp");
    expect(content(meta, "twitter:card")).toBe("summary_large_image");
    const ld = find(meta, (m) => "script:ld+json" in m)?.["script:ld+json"] as Record<string, unknown>;
    expect(ld["@type"]).toBe("WebSite");
    expect(ld.potentialAction).toMatchObject({ "@type": "SearchAction", "query-input": "required name=search_term_string" });
    expect(content(meta, "robots")).toBeUndefined();
  });

  it("uses the page's own title, description and image, and a BreadcrumbList on a nested page", () => {
    const meta = seoMeta(args("/cards/A1-001"), {
      title: "フシギダネ",
      description: "カードの説明",
      image: "https://cdn.example/a1.webp",
      breadcrumbs: [{ name: "カードデータベース", path: "/cards" }, { name: "フシギダネ", path: "/cards/A1-001" }],
    });
    expect(find(meta, (m) => "title" in m)?.title).toBe("フシギダネ | トレポケ");
    expect(content(meta, "description")).toBe("カードの説明");
    expect(content(meta, "og:title")).toBe("フシギダネ");
    expect(content(meta, "og:description")).toBe("カードの説明");
    expect(content(meta, "og:image")).toBe("https://cdn.example/a1.webp");
    const ld = find(meta, (m) => "script:ld+json" in m)?.["script:ld+json"] as { "@type": string; itemListElement: { position: number; name: string; item: string }[] };
    expect(ld["@type"]).toBe("BreadcrumbList");
    expect(ld.itemListElement).toEqual([
      { "@type": "ListItem", position: 1, name: "ホーム", item: "https://torepoke.example/" },
      { "@type": "ListItem", position: 2, name: "カードデータベース", item: "https://torepoke.example/cards" },
      { "@type": "ListItem", position: 3, name: "フシギダネ", item: "https://torepoke.example/cards/A1-001" },
    ]);
  });

  it("falls back to the built-in description and image when the settings are empty", () => {
    const meta = seoMeta(args("/terms", { metaDescription: "", seoKeywords: "", ogImage: "", ogTitle: "" }), { title: "利用規約" });
    expect(content(meta, "description")).toMatch(/^ポケポケ/);
    expect(content(meta, "keywords")).toBeUndefined();
    expect(content(meta, "og:image")).toBe("https://torepoke.example/og-default.png");
  });

  it("marks private and empty pages noindex", () => {
    expect(content(seoMeta(args("/login"), { title: "ログイン", noindex: true }), "robots")).toBe("noindex, follow");
  });

  it("keeps only the meaningful query parameters in the canonical URL", () => {
    expect(canonicalUrl("https://t.example", "/cards", { pack: "a1", rarity: "", cursor: undefined })).toBe("https://t.example/cards?pack=a1");
  });
});
