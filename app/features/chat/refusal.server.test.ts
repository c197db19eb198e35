import { describe, expect, it } from "vitest";
import { z } from "#app/lib/zod.ts";
import { ChatError } from "./errors";
import { chatRefusalOf } from "./refusal.server";

describe("a socket handler's refusal", () => {
  it("keeps our refusals, calls bad input invalid and anything else unavailable (the client sends again)", () => {
    expect(chatRefusalOf(new ChatError("blocked")).code).toBe("blocked");
    expect(chatRefusalOf(z.string().safeParse(1).error).code).toBe("invalid");
    const lost = chatRefusalOf(new Error("Connection is closed."));
    expect(lost.code).toBe("unavailable");
    expect(lost.status).toBe(503);
    expect(lost.text("ja")).toBe("一時的にメッセージを送れません。つながりしだい自動で送ります。");
  });
});
