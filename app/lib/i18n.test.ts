import { describe, expect, it } from "vitest";
import { bodyLanguageMarker, defineMessages, format, localeFromRequest, translate } from "./i18n";

describe("i18n", () => {
  const messages = defineMessages({
    ja: { registered: "{count}件のカードを登録しました" },
    en: { registered: "Registered {count} cards" },
  });
  it("translates with params in both languages", () => {
    expect(translate(messages, "ja", "registered", { count: 3 })).toBe("3件のカードを登録しました");
    expect(translate(messages, "en", "registered", { count: 3 })).toBe("Registered 3 cards");
  });
  it("leaves a missing param visible", () => {
    expect(format("{a} and {b}", { a: 1 })).toBe("1 and {b}");
  });
  it("reads the language cookie, Japanese by default", () => {
    expect(localeFromRequest(new Request("http://x/"))).toBe("ja");
    expect(localeFromRequest(new Request("http://x/", { headers: { cookie: "a=1; lang=en" } }))).toBe("en");
    expect(localeFromRequest(new Request("http://x/", { headers: { cookie: "lang=fr" } }))).toBe("ja");
  });
});

describe("the body's language marker (docs/product-rules.md §4)", () => {
  it("marks the body while the page language is not ja, and only then", () => {
    expect(bodyLanguageMarker("en")).toEqual({ className: "translated", "data-translated": "en" });
    expect(bodyLanguageMarker("ja")).toEqual({ className: undefined, "data-translated": undefined });
  });
});

describe("plural messages", () => {
  const catalogue = defineMessages({ ja: { cards: "{count}枚" }, en: { cards: { one: "{count} card", other: "{count} cards" } } });
  it("picks the language's plural form by count", () => {
    expect(translate(catalogue, "en", "cards", { count: 1 })).toBe("1 card");
    expect(translate(catalogue, "en", "cards", { count: 2 })).toBe("2 cards");
    expect(translate(catalogue, "en", "cards", { count: 0 })).toBe("0 cards");
    expect(translate(catalogue, "ja", "cards", { count: 1 })).toBe("1枚");
  });
});
