import { afterEach, describe, expect, it, vi } from "vitest";
import { record } from "./answers";
import { load, send, UnexpectedAnswerError } from "./send";
import { z } from "./zod";

const answer = (body: unknown, status = 200) =>
  vi.fn(async (_url: string, _init?: RequestInit) => new Response(typeof body === "string" ? body : JSON.stringify(body), { status, headers: { "content-type": "application/json" } }));

afterEach(() => vi.unstubAllGlobals());

describe("send, the browser's one mutation call", () => {
  it("sends JSON with its method and reads a success through the caller's schema", async () => {
    const fetch = answer({ id: "d1", slug: "deck", extra: true });
    vi.stubGlobal("fetch", fetch);
    const sent = await send("/api/admin/decks/d1", { method: "PATCH", json: { name: "x" } }, z.object({ id: z.string(), slug: z.string() }));
    expect(sent).toEqual({ ok: true, status: 200, data: { id: "d1", slug: "deck" } });
    const [url, init] = fetch.mock.calls[0];
    expect(url).toBe("/api/admin/decks/d1");
    expect(init).toMatchObject({ method: "PATCH", body: JSON.stringify({ name: "x" }), headers: { "Content-Type": "application/json", Accept: "application/json" } });
  });

  it("reads the edge's refusal {error, code, fields} as {code, message, fields}", async () => {
    vi.stubGlobal("fetch", answer({ error: "タイトルを入力してください", code: "invalid_input", fields: { title: "タイトルを入力してください" } }, 400));
    expect(await send("/api/admin/articles", { json: {} })).toEqual({
      ok: false,
      status: 400,
      refusal: { code: "invalid_input", message: "タイトルを入力してください", fields: { title: "タイトルを入力してください" } },
    });
  });

  it("has no refusal to show when the failure is not the refusal shape", async () => {
    vi.stubGlobal("fetch", answer("<html>Bad gateway</html>", 502));
    expect(await send("/api/admin/articles", { method: "DELETE" })).toEqual({ ok: false, status: 502, refusal: undefined });
  });

  it("throws on a success that is not the expected shape, as on a network failure", async () => {
    vi.stubGlobal("fetch", answer({ nothing: true }));
    await expect(send("/api/admin/decks", { json: {} }, z.object({ id: z.string() }))).rejects.toBeInstanceOf(UnexpectedAnswerError);
    vi.stubGlobal("fetch", vi.fn(async () => Promise.reject(new TypeError("offline"))));
    await expect(send("/api/admin/decks", { json: {} })).rejects.toThrow("offline");
  });

  it("load reads a GET answer through its schema and throws on a failure or another shape", async () => {
    const list = z.object({ cards: z.array(record<{ id: string }>()) });
    vi.stubGlobal("fetch", answer({ cards: [{ id: "a" }] }));
    await expect(load("/api/cards?pack=x", list)).resolves.toEqual({ cards: [{ id: "a" }] });
    vi.stubGlobal("fetch", answer({ cards: ["not a record"] }));
    await expect(load("/api/cards?pack=x", list)).rejects.toBeInstanceOf(UnexpectedAnswerError);
    vi.stubGlobal("fetch", answer({ error: "見つかりません", code: "not_found" }, 404));
    await expect(load("/api/cards?pack=x", list)).rejects.toThrow("HTTP 404");
  });
});
