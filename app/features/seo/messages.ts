import { defineMessages } from "#app/lib/i18n.tsx";

/** SEO suggestions (docs/product-rules.md §7 AI SEO, §8). */
export const seoMessages = defineMessages({
  ja: {
    suggestFailed: "SEO情報の生成に失敗しました。再度お試しください。",
    suggestEmpty: "タイトルか本文を入力してください",
    invalidRequest: "リクエストの形式が正しくありません",
  },
  en: {
    suggestFailed: "The SEO information could not be generated. Please try again.",
    suggestEmpty: "Enter a title or some content",
    invalidRequest: "The request is not in the expected format",
  },
});
export type SeoMessageKey = keyof typeof seoMessages.ja;
