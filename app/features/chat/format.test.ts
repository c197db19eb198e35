import { describe, expect, it } from "vitest";
import { tokyoDateTime } from "#app/lib/tokyo-time.ts";
import { splitLinks } from "./format";

describe("chat message formatting", () => {
  it("prints times in Asia/Tokyo whatever the machine's zone", () => {
    expect(tokyoDateTime("2026-11-21T09:05:00.000Z", "ja")).toBe("11/21 18:05");
    expect(tokyoDateTime("2026-12-31T15:30:00.000Z", "ja")).toBe("1/1 00:30");
  });

  it("turns http(s) URLs into link segments and leaves everything else as text", () => {
    expect(splitLinks("見て https://example.com/a?b=1。ね")).toEqual([
      { kind: "text", text: "見て " },
      { kind: "link", href: "https://example.com/a?b=1", text: "https://example.com/a?b=1" },
      { kind: "text", text: "。ね" },
    ]);
    expect(splitLinks("(http://x.example/path).")).toEqual([
      { kind: "text", text: "(" },
      { kind: "link", href: "http://x.example/path", text: "http://x.example/path" },
      { kind: "text", text: ")." },
    ]);
    expect(splitLinks('<a href="javascript:alert(1)">x</a> javascript:alert(1)')).toEqual([
      { kind: "text", text: '<a href="javascript:alert(1)">x</a> javascript:alert(1)' },
    ]);
    expect(splitLinks("リンクなし")).toEqual([{ kind: "text", text: "リンクなし" }]);
  });
});
