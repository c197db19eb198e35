import { describe, expect, it } from "vitest";
import { pagePathOf, pageUrlOf } from "./data-url";

describe("pagePathOf", () => {
  it("resolves data requests to their page as the router does", () => {
    expect(pagePathOf("/_.data")).toBe("/");
    expect(pagePathOf("/trades/_.data")).toBe("/trades/");
    expect(pagePathOf("/trades.data")).toBe("/trades");
    expect(pagePathOf("/login.data")).toBe("/login");
    expect(pagePathOf("/articles/feed.xml")).toBe("/articles/feed.xml");
    expect(pagePathOf("/")).toBe("/");
  });
});

describe("pageUrlOf", () => {
  it("gives a raw data request's page address, as React Router hands loaders their url", () => {
    const of = (url: string) => pageUrlOf(new Request(url)).toString();
    expect(of("http://t.test/trades/new.data?_routes=routes%2Ftrades.new&want=A1-001*2")).toBe("http://t.test/trades/new?want=A1-001*2");
    expect(of("http://t.test/_.data?_routes=root")).toBe("http://t.test/");
    expect(of("http://t.test/cards?pack=A1&page=2")).toBe("http://t.test/cards?pack=A1&page=2");
  });
});
