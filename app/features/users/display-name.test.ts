import { describe, expect, it } from "vitest";
import { checkDisplayName, DELETED_USER_NAME } from "./display-name";
import { shownName } from "#app/features/users/components/shown-name.ts";

describe("checkDisplayName", () => {
  it("trims and accepts Japanese names up to 20 characters", () => {
    expect(checkDisplayName("  サトシ ")).toEqual({ ok: true, value: "サトシ" });
    expect(checkDisplayName("あ".repeat(20)).ok).toBe(true);
    expect(checkDisplayName("🃏".repeat(20)).ok).toBe(true);
  });

  it("refuses empty, overlong, invisible characters and markup", () => {
    expect(checkDisplayName(" ")).toEqual({ ok: false, problem: "required" });
    expect(checkDisplayName("あ".repeat(21))).toEqual({ ok: false, problem: "tooLong" });
    expect(checkDisplayName("a\u0007b")).toEqual({ ok: false, problem: "control" });
    expect(checkDisplayName("a\u200Bb")).toEqual({ ok: false, problem: "control" });
    expect(checkDisplayName("<img src=x>")).toEqual({ ok: false, problem: "markup" });
  });

  it("keeps the deleted account's name (and its English form) for deleted accounts", () => {
    expect(checkDisplayName(" 退会したユーザー ")).toEqual({ ok: false, problem: "reserved" });
    expect(checkDisplayName("Deleted  User")).toEqual({ ok: false, problem: "reserved" });
    expect(checkDisplayName("退会したユーザーさん").ok).toBe(true);
  });
});

describe("shownName", () => {
  it("shows a deleted account in the reader's language, and any other name as it is", () => {
    expect(shownName(DELETED_USER_NAME, "ja")).toBe("退会したユーザー");
    expect(shownName(DELETED_USER_NAME, "en")).toBe("Deleted user");
    expect(shownName("ピカチュウ好き", "en")).toBe("ピカチュウ好き");
  });
});
