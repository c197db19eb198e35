// The one SEO helper (docs/architecture.md "Content: formatter, uploads, site settings and the SEO head"): every route's `meta` export returns `seoMeta(args, page)`, so
// every page's head has the same parts, built from the page's own data and the admin's site
// settings (which the root loader hands to every page): <title>, description, keywords, canonical
// URL, Open Graph, Twitter card, JSON-LD and, where a page should not be indexed, robots noindex.
import type { MetaDescriptor } from "react-router";
import { defineMessages, translate, type Locale } from "./i18n";

/**
 * The site's name, the home page's title and what a page without its own description says
 * (docs/product-rules.md's wording in Japanese), and the breadcrumb trail's first step.
 */
export const siteMessages = defineMessages({
  ja: {
    siteName: "トレポケ",
    home: "ホーム",
    homeTitle: "トレポケ - ポケポケのトレード掲示板・カードデータベース",
    description: "ポケポケ（Pokémon TCG Pocket）のトレード掲示板とカードデータベース。欲しいカードと譲れるカードでトレード相手が見つかります。",
  },
  en: {
    siteName: "トレポケ",
    home: "Home",
    homeTitle: "トレポケ - Trade board and card database for Pokémon TCG Pocket",
    description: "A trade board and card database for Pokémon TCG Pocket. Find trading partners with the cards you want and the cards you can give.",
  },
});

/** The site's name where no reader's language applies (the Atom feed's author, JSON-LD organisations). */
export const SITE_NAME = translate(siteMessages, "ja", "siteName");
/** Shown when neither the page nor the site settings have an image (public/, 1200×630). */
export const DEFAULT_OG_IMAGE = "/og-default.png";

/** What the root loader gives every page's head (docs/product-rules.md §3 site settings + SITE_URL). */
export type SiteHead = {
  url: string;
  settings: { metaDescription: string; seoKeywords: string; ogTitle: string; ogDescription: string; ogImage: string };
};

export type Breadcrumb = { name: string; path: string };

export type PageSeo = {
  /** The page's own title; undefined on the home page. */
  title?: string;
  /** The page's own description; otherwise the site's. */
  description?: string;
  /** The page's own keywords (comma separated); otherwise the site's. */
  keywords?: string;
  /** Query parameters that change what the page shows (kept in the canonical URL, in this order). */
  canonicalQuery?: Record<string, string | null | undefined>;
  /** The page's own image (absolute or site-relative); otherwise the site's OG image. */
  image?: string | null;
  type?: "website" | "article";
  /** The trail under HOME, the page itself last (a nested page gets a BreadcrumbList). */
  breadcrumbs?: Breadcrumb[];
  /** Sign-in, private and empty pages are kept out of search results. */
  noindex?: boolean;
  /** More JSON-LD objects of the page (Article, deck types come with their features). */
  jsonLd?: Record<string, unknown>[];
};

type MetaArgs = {
  location: { pathname: string };
  matches: ReadonlyArray<{ id: string; loaderData?: unknown } | undefined>;
};

function rootData(matches: MetaArgs["matches"]): { locale: Locale; site: SiteHead | null } {
  const root = matches.find((m) => m?.id === "root")?.loaderData as { locale?: Locale; site?: SiteHead } | undefined;
  return { locale: root?.locale === "en" ? "en" : "ja", site: root?.site ?? null };
}

function absolute(base: string, url: string): string {
  if (/^https?:\/\//i.test(url)) return url;
  return `${base}${url.startsWith("/") ? "" : "/"}${url}`;
}

/** SITE_URL + path + only the meaningful query parameters (no cursors, no tracking). */
export function canonicalUrl(base: string, pathname: string, query?: PageSeo["canonicalQuery"]): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) if (value) params.set(name, value);
  const search = params.toString();
  return `${base}${pathname}${search ? `?${search}` : ""}`;
}

/** The head of a page: what every route's `meta` returns. */
export function seoMeta(args: MetaArgs, page: PageSeo = {}): MetaDescriptor[] {
  const { locale, site } = rootData(args.matches);
  const base = site?.url ?? "";
  const settings = site?.settings;
  const isHome = args.location.pathname === "/";
  const t = (key: keyof (typeof siteMessages)["ja"]) => translate(siteMessages, locale, key);
  const siteName = t("siteName");
  const title = page.title ? `${page.title} | ${siteName}` : t("homeTitle");
  const description = page.description || settings?.metaDescription || t("description");
  const keywords = page.keywords ?? settings?.seoKeywords ?? "";
  const canonical = canonicalUrl(base, args.location.pathname, page.canonicalQuery);
  const image = absolute(base, page.image || settings?.ogImage || DEFAULT_OG_IMAGE);
  // The site's OG title and description speak for the home page; other pages speak for themselves.
  const ogTitle = isHome ? settings?.ogTitle || title : (page.title ?? title);
  const ogDescription = isHome ? settings?.ogDescription || description : description;

  const meta: MetaDescriptor[] = [
    { title },
    { name: "description", content: description },
    ...(keywords ? [{ name: "keywords", content: keywords }] : []),
    { tagName: "link", rel: "canonical", href: canonical },
    { property: "og:title", content: ogTitle },
    { property: "og:description", content: ogDescription },
    { property: "og:type", content: page.type ?? "website" },
    { property: "og:url", content: canonical },
    { property: "og:site_name", content: siteName },
    { property: "og:locale", content: locale === "en" ? "en_US" : "ja_JP" },
    { property: "og:image", content: image },
    { name: "twitter:card", content: image ? "summary_large_image" : "summary" },
    { name: "twitter:image", content: image },
  ];
  if (page.noindex) meta.push({ name: "robots", content: "noindex, follow" });

  const jsonLd: Record<string, unknown>[] = [];
  if (isHome) {
    jsonLd.push({
      "@context": "https://schema.org",
      "@type": "WebSite",
      name: siteName,
      url: `${base}/`,
      description,
      inLanguage: locale,
      potentialAction: {
        "@type": "SearchAction",
        target: { "@type": "EntryPoint", urlTemplate: `${base}/cards?q={search_term_string}` },
        "query-input": "required name=search_term_string",
      },
    });
  } else if (page.breadcrumbs?.length) {
    const trail = [{ name: t("home"), path: "/" }, ...page.breadcrumbs];
    jsonLd.push({
      "@context": "https://schema.org",
      "@type": "BreadcrumbList",
      itemListElement: trail.map((crumb, index) => ({ "@type": "ListItem", position: index + 1, name: crumb.name, item: absolute(base, crumb.path) })),
    });
  }
  jsonLd.push(...(page.jsonLd ?? []));
  for (const data of jsonLd) meta.push({ "script:ld+json": data });
  return meta;
}
