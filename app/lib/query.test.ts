import { describe, expect, it } from "vitest";
import { parseQuery } from "./query";
import { z } from "./zod";

describe("parseQuery", () => {
  it("reads a parameter given twice by its first value, as URLSearchParams.get does", () => {
    const schema = z.object({ q: z.string().optional() });
    expect(parseQuery(new URLSearchParams("q=first&q=second"), schema)).toEqual({ q: "first" });
  });

  it("has no inherited parameters: an absent constructor is absent, a given one is text", () => {
    const schema = z.object({ constructor: z.string().optional() });
    expect(parseQuery(new URLSearchParams(""), schema)).toEqual({});
    expect(parseQuery(new URLSearchParams("constructor=y"), schema)).toEqual({ constructor: "y" });
  });

  it("a page's schema falls back field by field; an endpoint's refuses with 400 invalid_input", () => {
    const page = z.object({ view: z.enum(["all", "matches"]).catch("all"), page: z.coerce.number().int().min(1).catch(1) });
    expect(parseQuery(new URLSearchParams("view=nonsense&page=-3"), page)).toEqual({ view: "all", page: 1 });
    expect(parseQuery(new URLSearchParams("view=matches&page=2"), page)).toEqual({ view: "matches", page: 2 });
    const endpoint = z.object({ limit: z.coerce.number().int().min(1) });
    expect(() => parseQuery(new URLSearchParams("limit=zero"), endpoint)).toThrow(expect.objectContaining({ status: 400, code: "invalid_input" }));
  });
});
