import { describe, expect, it } from "vitest";
import { isCsrfSafe } from "./csrf.server";

const SITE = "https://torepoke.example";
const base = { method: "POST", origin: undefined, referer: undefined, cookie: undefined, host: "torepoke.example" };

describe("isCsrfSafe", () => {
  it("lets reads through whatever their origin", () => {
    expect(isCsrfSafe({ ...base, method: "GET", origin: "https://evil.example", cookie: "a=b" }, SITE)).toBe(true);
  });

  it("accepts a same-origin POST by Origin or, without one, by Referer", () => {
    expect(isCsrfSafe({ ...base, origin: SITE, cookie: "a=b" }, SITE)).toBe(true);
    expect(isCsrfSafe({ ...base, referer: `${SITE}/profile?x=1`, cookie: "a=b" }, SITE)).toBe(true);
  });

  it("refuses another site, a null origin and a garbage referer", () => {
    for (const method of ["POST", "PUT", "PATCH", "DELETE"]) {
      expect(isCsrfSafe({ ...base, method, origin: "https://evil.example" }, SITE)).toBe(false);
    }
    expect(isCsrfSafe({ ...base, origin: "null" }, SITE)).toBe(false);
    expect(isCsrfSafe({ ...base, referer: "https://evil.example/page" }, SITE)).toBe(false);
    expect(isCsrfSafe({ ...base, referer: "not a url" }, SITE)).toBe(false);
    // Origin wins over a same-site Referer.
    expect(isCsrfSafe({ ...base, origin: "https://evil.example", referer: `${SITE}/` }, SITE)).toBe(false);
  });

  it("accepts the host the request was sent to (loopback access to a local server)", () => {
    expect(isCsrfSafe({ ...base, origin: "http://127.0.0.1:3000", host: "127.0.0.1:3000" }, "http://localhost:3000")).toBe(true);
    expect(isCsrfSafe({ ...base, origin: "http://127.0.0.1:4000", host: "127.0.0.1:3000" }, "http://localhost:3000")).toBe(false);
  });

  it("refuses a provenance-less request that carries cookies, accepts one without", () => {
    expect(isCsrfSafe({ ...base, cookie: "torepoke.session_token=x" }, SITE)).toBe(false);
    expect(isCsrfSafe({ ...base }, SITE)).toBe(true);
  });
});
