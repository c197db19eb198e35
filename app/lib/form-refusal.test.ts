import { describe, expect, it } from "vitest";
import { fieldMessage, formMessage, refusalOf } from "./form-refusal";

describe("a page refusal at its form", () => {
  it("reads the refusal shape out of an action's answer and nothing else", () => {
    expect(refusalOf({ intent: "x", code: "invalid_input", message: "A", fields: { email: "A", n: 1 } })).toEqual({ code: "invalid_input", message: "A", fields: { email: "A" } });
    expect(refusalOf({ ok: true, values: {} })).toBeUndefined();
    expect(refusalOf({ code: 1, message: "A" })).toBeUndefined();
    expect(refusalOf(null)).toBeUndefined();
  });

  it("shows a field's message at the field and a field-less refusal above the form", () => {
    const atField = refusalOf({ code: "invalid_input", message: "E", fields: { email: "E" } });
    expect(fieldMessage(atField, "email")).toBe("E");
    expect(formMessage(atField)).toBeUndefined();
    const atForm = refusalOf({ code: "rate_limited", message: "W" });
    expect(formMessage(atForm)).toBe("W");
    expect(fieldMessage(atForm, "email")).toBeUndefined();
    expect(formMessage(refusalOf({ code: "invalid_input", message: "F", fields: { form: "F" } }))).toBe("F");
  });
});
