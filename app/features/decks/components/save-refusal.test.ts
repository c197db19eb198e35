import { describe, expect, it } from "vitest";
import { refusedSaveStep } from "./save-refusal";

describe("the deck editor's answer to a refused save", () => {
  it("a stale revision is the conflict notice", () => {
    expect(refusedSaveStep(409, { code: "conflict" }, false)).toBe("conflict");
  });

  it("an illegal deck the editor's own check let through opens the confirmation dialog", () => {
    expect(refusedSaveStep(422, { code: "illegal_deck" }, false)).toBe("confirm");
  });

  it("once the admin confirmed, a further refusal is shown, not asked again", () => {
    expect(refusedSaveStep(422, { code: "illegal_deck" }, true)).toBe("fail");
  });

  it("other refusals show their reason", () => {
    expect(refusedSaveStep(400, { code: "invalid_input" }, false)).toBe("fail");
    expect(refusedSaveStep(500, undefined, false)).toBe("fail");
  });
});
