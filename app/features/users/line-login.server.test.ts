import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { LineSettings } from "#app/lib/env.server.ts";
import { lineNonce, verifyLineIdToken } from "./line-login.server";

const line: LineSettings = {
  clientId: "1650000001",
  clientSecret: "0123456789abcdef0123456789abcdef",
  issuer: "https://access.line.me",
  authorizationUrl: "https://access.line.me/oauth2/v2.1/authorize",
  tokenUrl: "https://api.line.me/oauth2/v2.1/token",
};

const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
function idToken(claims: Record<string, unknown>, { secret = line.clientSecret, alg = "HS256" } = {}) {
  const head = `${part({ alg, typ: "JWT" })}.${part(claims)}`;
  return `${head}.${createHmac("sha256", secret).update(head).digest("base64url")}`;
}
const now = () => Math.floor(Date.now() / 1000);
const nonce = lineNonce("s".repeat(40), "verifier-of-this-sign-in");
const good = () => ({ iss: line.issuer, sub: "U0123456789abcdef0123456789abcdef", aud: line.clientId, exp: now() + 600, iat: now(), nonce, name: "ライン太郎" });

describe("verifyLineIdToken (LINE web login: HS256 with the channel secret)", () => {
  it("takes LINE's token for this channel and sign-in", () => {
    expect(verifyLineIdToken(idToken(good()), line, nonce)).toMatchObject({ sub: "U0123456789abcdef0123456789abcdef", name: "ライン太郎" });
  });

  it.each([
    ["another secret", idToken(good(), { secret: "fedcba9876543210fedcba9876543210" })],
    ["no signature check (alg none)", `${part({ alg: "none" })}.${part(good())}.`],
    ["another algorithm", idToken(good(), { alg: "HS512" })],
    ["another issuer", idToken({ ...good(), iss: "https://access.line.me.example" })],
    ["another channel", idToken({ ...good(), aud: "1650000002" })],
    ["expired", idToken({ ...good(), exp: now() - 1 })],
    ["another sign-in's nonce", idToken({ ...good(), nonce: lineNonce("s".repeat(40), "another-verifier") })],
    ["no nonce", idToken({ ...good(), nonce: undefined })],
    ["no subject", idToken({ ...good(), sub: "" })],
    ["not a JWT", "abc.def"],
  ])("refuses a token with %s", (_what, token) => {
    expect(verifyLineIdToken(token, line, nonce)).toBeNull();
  });

  it("a payload changed after signing fails the signature", () => {
    const [head, , signature] = idToken(good()).split(".");
    expect(verifyLineIdToken(`${head}.${part({ ...good(), sub: "Uattacker" })}.${signature}`, line, nonce)).toBeNull();
  });
});
