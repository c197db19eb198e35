import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ContentEditor } from "./content-editor";
import { LinkDialog } from "./link-dialog";
import { RelatedPicker } from "./related-picker";
import { SeoFields } from "./seo-fields";

describe("content editor pieces (server render)", () => {
  it("labels the textarea and offers every formatting tool and the two views", () => {
    const html = renderToStaticMarkup(
      <ContentEditor id="body" label="本文" value="" onChange={() => {}} memoryKey="t" packs={[]} relatedSources={[]} error="内容を入力してください" />,
    );
    expect(html).toContain('<label for="body"');
    expect(html).toContain('role="toolbar" aria-label="書式"');
    for (const tool of ["見出し", "太字", "斜体", "コード", "リスト", "リンク", "画像", "カード", "関連記事"]) expect(html).toContain(`>${tool}<`);
    expect(html).toMatch(/role="tab" aria-selected="true"[^>]*>編集</);
    expect(html).toMatch(/role="tab" aria-selected="false"[^>]*>プレビュー</);
    expect(html).toContain('aria-describedby="body-error"');
    expect(html).toContain(">内容を入力してください<");
  });

  it("the hyperlink dialog shows the selected text and keeps 追加 disabled while the URL is blank", () => {
    const html = renderToStaticMarkup(<LinkDialog selectedText="公式サイト" onAdd={() => {}} onClose={() => {}} />);
    expect(html).toContain("リンクを挿入");
    expect(html).toContain(">公式サイト<");
    expect(html).toMatch(/<button type="button"[^>]*disabled=""[^>]*>追加<\/button>/);
    expect(html).toContain("aria-labelledby=");
  });

  it("the related picker has the three tabs and a cancel button, at most 80% of the viewport high", () => {
    const html = renderToStaticMarkup(<RelatedPicker sources={[]} onChoose={() => {}} onClose={() => {}} />);
    for (const tab of ["すべて", "記事", "デッキレシピ"]) expect(html).toMatch(new RegExp(`role="tab"[^>]*>${tab}<`));
    expect(html).toContain("max-height:80vh");
    expect(html).toContain(">キャンセル<");
    expect(html).toContain(">タイトルで検索<");
  });

  it("the SEO fields count the meta description up to 200", () => {
    const html = renderToStaticMarkup(<SeoFields values={{ keywords: "a", metaDescription: "説明" }} onChange={() => {}} suggestFrom={() => ({ title: "", content: "" })} />);
    expect(html).toContain(">2/200<");
    expect(html).toContain('maxLength="200"');
    expect(html).toContain(">提案<");
  });
});
