import { describe, expect, it } from "vitest";
import { changeVersion, onChange, onLocalChange, publishChange, receiveRemoteChange, type ChangeKind } from "./change-bus.server";

describe("change bus", () => {
  it("delivers a local change to the relay and to the subscribers of its kind only, and moves that kind's version", () => {
    const heard: string[] = [];
    const stops = [
      onLocalChange((kind) => heard.push(`relay:${kind}`)),
      onChange("board", (origin) => heard.push(`board:${origin}`)),
      onChange("content", (origin) => heard.push(`content:${origin}`)),
    ];
    const before = { board: changeVersion("board"), content: changeVersion("content") };
    publishChange("board");
    expect(heard).toEqual(["relay:board", "board:local"]);
    expect(changeVersion("board")).toBe(before.board + 1);
    expect(changeVersion("content")).toBe(before.content);
    for (const stop of stops) stop();
    publishChange("board");
    expect(heard).toHaveLength(2);
  });

  it("delivers a relayed change to the subscribers, never back to the relay", () => {
    const heard: string[] = [];
    const stops = [onLocalChange((kind) => heard.push(`relay:${kind}`)), onChange("settings", (origin) => heard.push(`settings:${origin}`))];
    const before = changeVersion("settings");
    receiveRemoteChange("settings");
    expect(heard).toEqual(["settings:remote"]);
    expect(changeVersion("settings")).toBe(before + 1);
    for (const stop of stops) stop();
  });

  it("types its events: an unknown kind does not compile", () => {
    // @ts-expect-error: not a kind of change
    const kind: ChangeKind = "unknown";
    expect(kind).toBe("unknown");
  });
});
