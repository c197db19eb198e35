import { describe, expect, it } from "vitest";
import { routeMatcher } from "./metrics";
import { createLogger } from "#app/lib/logger.server.ts";

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

describe("metrics port", () => {
  it("serves Prometheus text with request timings by route, sockets and analytics rows, only on its own port", async () => {
    const { createMetrics } = await import("./metrics");
    const express = (await import("express")).default;
    const env = { metrics: { port: 0, host: "127.0.0.1" } } as never;
    const log = createLogger("silent");
    const metrics = createMetrics({ env, build: { routes: { card: { id: "card", path: "cards/:cardId" } } } as never, log });
    const app = express();
    app.use(metrics.middleware);
    app.get("/cards/:id", (_req, res) => void res.send("ok"));
    const server = app.listen(0, "127.0.0.1");
    await new Promise((r) => server.once("listening", r));
    await metrics.start({ engine: { clientsCount: 3 } } as never);
    try {
      const address = server.address() as { port: number };
      await fetch(`http://127.0.0.1:${address.port}/cards/A1-001`);
      const text = await (await fetch(`http://127.0.0.1:${metrics.port()}/metrics`)).text();
      expect(text).toMatch(/http_request_duration_seconds_count\{method="GET",route="\/cards\/:cardId",status="200"\} 1/);
      expect(text).toMatch(/^socketio_connected_sockets 3$/m);
      expect(text).toMatch(/^analytics_dropped_rows_total 0$/m);
      expect((await fetch(`http://127.0.0.1:${metrics.port()}/other`)).status).toBe(404);
    } finally {
      server.close();
      await metrics.close();
    }
  });
});
