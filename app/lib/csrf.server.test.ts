import { describe, expect, it } from "vitest";
import { isCsrfSafe, isSiteOrigin } from "./csrf.server";

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

  it("compares the whole origin: scheme, host and port", () => {
    const site = "http://torepoke.example:3000";
    const host = "torepoke.example:3000";
    expect(isCsrfSafe({ ...base, host, origin: "http://torepoke.example:3000", cookie: "a=b" }, site)).toBe(true);
    // Same host and port, other scheme: another origin.
    expect(isCsrfSafe({ ...base, host, origin: "https://torepoke.example:3000", cookie: "a=b" }, site)).toBe(false);
    expect(isCsrfSafe({ ...base, host, referer: "https://torepoke.example:3000/profile", cookie: "a=b" }, site)).toBe(false);
    expect(isCsrfSafe({ ...base, host, origin: "http://torepoke.example:3001", cookie: "a=b" }, site)).toBe(false);
    // The Host header names the server, not who may call it.
    expect(isCsrfSafe({ ...base, host: "evil.example", origin: "http://evil.example", cookie: "a=b" }, site)).toBe(false);
  });

  it("takes another loopback name of a local site, on the same scheme and port only", () => {
    expect(isCsrfSafe({ ...base, origin: "http://127.0.0.1:3000", host: "127.0.0.1:3000" }, "http://localhost:3000")).toBe(true);
    expect(isCsrfSafe({ ...base, origin: "http://[::1]:3000", host: "[::1]:3000" }, "http://localhost:3000")).toBe(true);
    expect(isCsrfSafe({ ...base, origin: "http://127.0.0.1:4000", host: "127.0.0.1:3000" }, "http://localhost:3000")).toBe(false);
    expect(isCsrfSafe({ ...base, origin: "https://127.0.0.1:3000", host: "127.0.0.1:3000" }, "http://localhost:3000")).toBe(false);
    expect(isCsrfSafe({ ...base, origin: "http://127.0.0.1:3000", host: "127.0.0.1:3000" }, "https://torepoke.example")).toBe(false);
  });

  it("refuses a provenance-less request that carries cookies, accepts one without", () => {
    expect(isCsrfSafe({ ...base, cookie: "torepoke.session_token=x" }, SITE)).toBe(false);
    expect(isCsrfSafe({ ...base }, SITE)).toBe(true);
  });
});

describe("isSiteOrigin (the Socket.IO handshake)", () => {
  it("accepts the site's own origin and refuses another scheme, port or host", () => {
    expect(isSiteOrigin("http://torepoke.example:3000", "http://torepoke.example:3000")).toBe(true);
    expect(isSiteOrigin("https://torepoke.example:3000", "http://torepoke.example:3000")).toBe(false);
    expect(isSiteOrigin("http://torepoke.example:3001", "http://torepoke.example:3000")).toBe(false);
    expect(isSiteOrigin("null", "http://torepoke.example:3000")).toBe(false);
    expect(isSiteOrigin("garbage", "http://torepoke.example:3000")).toBe(false);
  });
});
