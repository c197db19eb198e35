import { describe, expect, it } from "vitest";
import { routeMatcher } from "./metrics";

describe("metrics route patterns", () => {
  const routeOf = routeMatcher({
    routes: {
      root: { id: "root", path: "" },
      cards: { id: "cards", path: "cards", parentId: "root" },
      card: { id: "card", path: "cards/:cardId", parentId: "root" },
      tradesNew: { id: "tradesNew", path: "trades/new", parentId: "root" },
      trade: { id: "trade", path: "trades/:id", parentId: "root" },
      notFound: { id: "notFound", path: "*", parentId: "root" },
    } as never,
  });

  it("labels a request by its route, never by its URL", () => {
    expect(routeOf("/")).toBe("/");
    expect(routeOf("/cards")).toBe("/cards");
    expect(routeOf("/cards/A1-001")).toBe("/cards/:cardId");
    expect(routeOf("/cards/A1-001.data")).toBe("/cards/:cardId");
    expect(routeOf("/trades/new")).toBe("/trades/new");
    expect(routeOf("/trades/0b7c-uuid")).toBe("/trades/:id");
    expect(routeOf("/assets/entry-abc.js")).toBe("/assets/*");
    expect(routeOf("/api/event")).toBe("/api/event");
    expect(routeOf("/no/such/page")).toBe("other");
  });
});
