import { describe, expect, it } from "vitest";
import { countChangeAnswer, importAnswer, settingsAnswer } from "./answers";

describe("the collection page's answers, read without zod", () => {
  it("reads a count change and refuses one missing its previous counts or with a count that is not a number", () => {
    const answer = { previous: [{ cardId: "A1-001", count: 0 }], counts: [{ cardId: "A1-001", count: 1 }] };
    expect(countChangeAnswer.safeParse(answer)).toEqual({ success: true, data: answer });
    expect(countChangeAnswer.safeParse({ counts: answer.counts }).success).toBe(false);
    expect(countChangeAnswer.safeParse({ previous: [], counts: [{ cardId: "A1-001", count: "1" }] }).success).toBe(false);
    expect(countChangeAnswer.safeParse(null).success).toBe(false);
  });

  it("reads the saved trade settings and refuses an unknown want mode", () => {
    const saved = { showProgress: true, useForTrades: true, keepCount: 1, tradeRarities: null, wantMode: "both", wantSets: ["A1"] };
    expect(settingsAnswer.safeParse(saved)).toEqual({ success: true, data: saved });
    expect(settingsAnswer.safeParse({ ...saved, wantMode: "everything" }).success).toBe(false);
    expect(settingsAnswer.safeParse({ ...saved, tradeRarities: [1] }).success).toBe(false);
  });

  it("reads an import's count", () => {
    expect(importAnswer.safeParse({ count: 35 })).toEqual({ success: true, data: { count: 35 } });
    expect(importAnswer.safeParse({}).success).toBe(false);
  });
});
