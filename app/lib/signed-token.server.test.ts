import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { signToken, verifySignedToken } from "./signed-token.server";

const SECRET = "k".repeat(40);

describe("signed tokens", () => {
  it("give back their payload only for the purpose and secret they were signed with", () => {
    const token = signToken(SECRET, "mail-unsubscribe", "user-1");
    expect(verifySignedToken(SECRET, "mail-unsubscribe", token)).toBe("user-1");
    expect(verifySignedToken(SECRET, "address-change-not-me", token)).toBeNull();
    expect(verifySignedToken("o".repeat(40), "mail-unsubscribe", token)).toBeNull();
  });

  it("refuse a changed payload, a changed signature and malformed tokens", () => {
    const [, signature] = signToken(SECRET, "p", "user-1").split(".");
    expect(verifySignedToken(SECRET, "p", `${Buffer.from("user-2").toString("base64url")}.${signature}`)).toBeNull();
    expect(verifySignedToken(SECRET, "p", `${Buffer.from("user-1").toString("base64url")}.${signature.slice(1)}x`)).toBeNull();
    for (const bad of [null, undefined, "", ".", "abc", "a.b.c", "x".repeat(3000)]) expect(verifySignedToken(SECRET, "p", bad)).toBeNull();
  });

  it("read the unsubscribe links already mailed (<user id>.<HMAC of mail-unsubscribe:id>)", () => {
    const mailed = `${Buffer.from("user-7").toString("base64url")}.${createHmac("sha256", SECRET).update("mail-unsubscribe:user-7").digest("base64url")}`;
    expect(verifySignedToken(SECRET, "mail-unsubscribe", mailed)).toBe("user-7");
    expect(signToken(SECRET, "mail-unsubscribe", "user-7")).toBe(mailed);
  });
});
