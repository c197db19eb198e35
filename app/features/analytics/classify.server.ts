import Bowser from "bowser";
import { isbot } from "isbot";

/**
 * What one hit says about its visitor without keeping the visitor: browser, OS and device class
 * from the user agent (bowser, MIT), the referrer's host and channel, UTM parameters, the page's
 * kind, a screen-size bucket and the language. The raw user agent, IP and query are never kept.
 */

export type PageKind =
  | "home" | "cards" | "card" | "articles" | "article" | "decks" | "deck" | "board" | "offer_new" | "offer" | "account" | "profile" | "chat" | "legal" | "other";

/** The page kind of a path; null for pages never counted (the admin area). */
export function pageKindOf(path: string): PageKind | null {
  if (path === "/admin" || path.startsWith("/admin/")) return null;
  if (path === "/") return "home";
  const [first, second] = path.slice(1).split("/");
  switch (first) {
    case "cards": return second ? "card" : "cards";
    case "articles": return second ? "article" : "articles";
    case "deck-recipes": return second ? "deck" : "decks";
    case "trades": return !second ? "board" : second === "new" ? "offer_new" : "offer";
    case "login": case "signup": case "logout": return "account";
    case "profile": return "profile";
    case "chat": return "chat";
    case "privacy-policy": case "terms": return "legal";
    default: return "other";
  }
}

/** Private pages are counted by kind only: a chat room's id or a blocked user's id never lands in the data. */
export function publicPathOf(path: string, kind: PageKind): string {
  if (kind === "chat") return "/chat";
  if (kind === "profile") return "/profile";
  return path.length > 300 ? path.slice(0, 300) : path;
}

const SEARCH = /(^|\.)(google|bing|yahoo|duckduckgo|baidu|yandex|ecosia|naver|goo)\.|^search\./;
const SOCIAL = /(^|\.)(twitter\.com|x\.com|t\.co|facebook\.com|fb\.com|instagram\.com|youtube\.com|youtu\.be|tiktok\.com|discord\.com|discord\.gg|line\.me|reddit\.com|threads\.net|bsky\.app|note\.com|nicovideo\.jp)$/;

export type Channel = "direct" | "search" | "social" | "referral" | "paid" | "email" | "campaign";

/** Plausible-like channels: UTM medium first, then the referrer's host. */
export function channelOf(referrerHost: string | null, utmMedium: string | null): Channel {
  const medium = utmMedium?.toLowerCase();
  if (medium) {
    if (/^(cpc|ppc|paid|paidsearch|display|banner)/.test(medium)) return "paid";
    if (medium === "email" || medium === "newsletter") return "email";
    if (medium === "social") return "social";
    if (medium === "organic") return "search";
  }
  if (!referrerHost) return medium ? "campaign" : "direct";
  if (SEARCH.test(referrerHost)) return "search";
  if (SOCIAL.test(referrerHost)) return "social";
  return "referral";
}

/** The referrer's host, or null for none, our own site, or something that is not an http(s) URL. */
export function referrerHostOf(referrer: string | undefined, siteHost: string): string | null {
  if (!referrer) return null;
  try {
    const url = new URL(referrer);
    if (url.protocol !== "http:" && url.protocol !== "https:") return null;
    const host = url.hostname.toLowerCase().replace(/^www\./, "");
    if (host === siteHost.replace(/^www\./, "").replace(/:\d+$/, "")) return null;
    return host.slice(0, 200);
  } catch {
    return null;
  }
}

export function screenBucketOf(width: unknown): string | null {
  const w = typeof width === "number" && Number.isFinite(width) ? width : null;
  if (w === null || w <= 0) return null;
  if (w < 576) return "mobile";
  if (w < 992) return "tablet";
  if (w < 1440) return "laptop";
  return "desktop";
}

/** The first language of Accept-Language, as its primary subtag ("ja", "en", …). */
export function languageOf(acceptLanguage: string | undefined): string | null {
  const first = acceptLanguage?.split(",")[0]?.split(";")[0]?.trim().toLowerCase();
  const primary = first?.split("-")[0];
  return primary && /^[a-z]{2,3}$/.test(primary) ? primary : null;
}

export type Agent = { browser: string; os: string; device: "mobile" | "tablet" | "desktop" | "other" };

export function agentOf(userAgent: string): Agent {
  const parsed = Bowser.parse(userAgent);
  const platform = parsed.platform.type;
  return {
    browser: parsed.browser.name || "unknown",
    os: parsed.os.name || "unknown",
    device: platform === "mobile" || platform === "tablet" || platform === "desktop" ? platform : "other",
  };
}

/**
 * Robots are not visitors: the maintained isbot list, plus what headless and automated browsers
 * give away (HeadlessChrome in the user agent or its client hints, navigator.webdriver).
 */
export function isRobot(userAgent: string | undefined, secChUa: string | undefined, webdriver: boolean): boolean {
  if (!userAgent || userAgent.length < 10) return true;
  if (webdriver) return true;
  if (isbot(userAgent)) return true;
  if (/headless/i.test(userAgent) || /headless/i.test(secChUa ?? "")) return true;
  return false;
}

/** Sec-GPC: 1 or DNT: 1 — the visitor asked not to be tracked, so nothing is counted. */
export function optedOut(headers: { gpc?: string; dnt?: string }): boolean {
  return headers.gpc?.trim() === "1" || headers.dnt?.trim() === "1";
}

export type Utm = { source: string | null; medium: string | null; campaign: string | null };

/** At most `max` characters counted by code point, so an emoji is never cut in half (a lone surrogate is not valid JSON for the database). */
function firstCodePoints(text: string, max: number): string {
  if (text.length <= max) return text;
  let out = "";
  let n = 0;
  for (const char of text) {
    if (n++ === max) break;
    out += char;
  }
  return out;
}

export function utmOf(search: string): Utm {
  const params = new URLSearchParams(search);
  const clean = (v: string | null) => (v ? firstCodePoints(v.trim(), 100) || null : null);
  return { source: clean(params.get("utm_source")), medium: clean(params.get("utm_medium")), campaign: clean(params.get("utm_campaign")) };
}
