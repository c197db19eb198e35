import { describe, expect, it } from "vitest";
import { DEFAULT_CHOICES, resolveChoices } from "./preferences";

describe("resolveChoices", () => {
  it("gives a kind the player never chose for its default", () => {
    const choices = resolveChoices({ message: { site: "on", push: "instant", mail: "digest" }, match: { site: "on", push: "off", mail: "off" } });
    expect(choices.message).toEqual({ site: "on", push: "instant", mail: "digest" });
    expect(choices.friend).toEqual(DEFAULT_CHOICES.friend);
  });

  it("keeps a newer kind silent on a channel the player had turned off for every kind they chose (the one-click unsubscribe)", () => {
    // Saved before 申請しました (friend) existed: every kind's mail and push off.
    const stored = Object.fromEntries(
      Object.keys(DEFAULT_CHOICES)
        .filter((kind) => kind !== "friend")
        .map((kind) => [kind, { site: "on", push: "off", mail: "off" }]),
    );
    expect(resolveChoices(stored).friend).toEqual({ site: "on", push: "off", mail: "off" });
    expect(DEFAULT_CHOICES.friend.mail).not.toBe("off");
  });

  it("shows a newer kind in the inbox even when every kind the player chose is hidden there, as the inbox does", () => {
    const stored = Object.fromEntries(
      Object.keys(DEFAULT_CHOICES)
        .filter((kind) => kind !== "friend")
        .map((kind) => [kind, { site: "off", push: "instant", mail: "instant" }]),
    );
    expect(resolveChoices(stored).friend.site).toBe("on");
    expect(resolveChoices(stored).message.site).toBe("off");
  });

  it("nothing stored is every default", () => {
    expect(resolveChoices(null)).toEqual(DEFAULT_CHOICES);
  });
});
