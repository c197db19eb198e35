import { describe, expect, it } from "vitest";
import { pagePathOf } from "./data-url";

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
