import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { FormField, SelectField, TextareaField } from "./form-field";
import { SubmitButton } from "./submit-button";

describe("form pieces", () => {
  it("ties the hint and the error to the input", () => {
    const html = renderToStaticMarkup(<FormField id="name" name="name" label="表示名" hint="20文字まで" error="入力してください" />);
    expect(html).toContain('<label for="name"');
    expect(html).toContain('aria-invalid="true"');
    expect(html).toContain('aria-describedby="name-hint name-error"');
    expect(html).toContain('<p id="name-error" class="text-sm font-medium text-red-700" role="alert">入力してください</p>');
  });

  it("leaves a valid field unmarked", () => {
    const html = renderToStaticMarkup(<SelectField id="pack" label="パック"><option value="a">A</option></SelectField>);
    expect(html).not.toContain("aria-invalid");
    expect(html).not.toContain("aria-describedby");
  });

  it("counts the characters of a textarea against its limit", () => {
    const html = renderToStaticMarkup(
      <TextareaField id="c" label="コメント" maxLength={500} defaultValue="こんにちは" counterText={(count, max) => `${count}/${max}文字`} />,
    );
    expect(html).toContain('<p id="c-counter" class="text-right text-xs text-slate-600">5/500文字</p>');
    expect(html).toContain('aria-describedby="c-counter"');
  });

  it("disables the submit button and says so while pending", () => {
    expect(renderToStaticMarkup(<SubmitButton pending pendingText="送信中...">送信</SubmitButton>)).toMatch(/disabled="" aria-busy="true"[^>]*>送信中\.\.\.</);
    expect(renderToStaticMarkup(<SubmitButton pendingText="送信中...">送信</SubmitButton>)).toMatch(/^<button type="submit" class="[^"]*">送信<\/button>$/);
  });
});
