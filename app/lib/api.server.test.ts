import { data } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import { withJsonErrors } from "./api.server";

afterEach(() => vi.restoreAllMocks());

describe("withJsonErrors", () => {
  it("passes answers through", async () => {
    const loader = withJsonErrors(async (n: number) => Response.json({ n }));
    expect(await (await loader(2) as Response).json()).toEqual({ n: 2 });
  });

  it("turns an unexpected failure into a JSON 500", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const loader = withJsonErrors(async () => {
      throw new Error("connection reset");
    });
    const res = (await loader()) as Response;
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ error: "Internal Server Error" });
    expect(logged).toHaveBeenCalledOnce();
  });

  it("lets deliberate responses through unchanged", async () => {
    const notFound = Response.json({ error: "not found" }, { status: 404 });
    await expect(withJsonErrors(async () => { throw notFound; })()).rejects.toBe(notFound);
    const forbidden = data({ error: "forbidden" }, { status: 403 });
    await expect(withJsonErrors(async () => { throw forbidden; })()).rejects.toBe(forbidden);
  });
});
