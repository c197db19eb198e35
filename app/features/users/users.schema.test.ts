import { describe, expect, it } from "vitest";
import { describeAppError } from "#app/lib/errors.ts";
import { SignupSchema, usersFormError } from "./users.schema";

describe("the account forms' refusal", () => {
  it("names each field with its text and the password range in both ends", () => {
    const parsed = SignupSchema.safeParse({ displayName: "<b>", email: "nope", password: "x".repeat(200) });
    if (parsed.success) throw new Error("expected a failure");
    expect(describeAppError(usersFormError(parsed.error), "ja")).toEqual({
      status: 400,
      code: "invalid_input",
      message: "表示名に < や > は使用できません",
      fields: { displayName: "表示名に < や > は使用できません", email: "メールアドレスの形式が正しくありません", password: "パスワードは8〜128文字で入力してください" },
    });
  });
});
