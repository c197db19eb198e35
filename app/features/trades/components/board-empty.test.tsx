import { renderToStaticMarkup } from "react-dom/server";
import { MemoryRouter } from "react-router";
import { describe, expect, it } from "vitest";
import { BoardEmpty } from "./board-empty";

const render = (filtered: boolean) =>
  renderToStaticMarkup(
    <MemoryRouter>
      <BoardEmpty filtered={filtered} />
    </MemoryRouter>,
  );

describe("an empty board", () => {
  it("with no filter says there are no offers yet and invites the first one", () => {
    const html = render(false);
    expect(html).toContain("まだ募集がありません。");
    expect(html).toMatch(/<a [^>]*href="\/trades\/new"[^>]*>最初の募集を投稿してみませんか？<\/a>/);
    expect(html).not.toContain("条件に一致する募集がありません");
  });

  it("with filters says that nothing matches them", () => {
    const html = render(true);
    expect(html).toContain("条件に一致する募集がありません");
    expect(html).not.toContain("/trades/new");
  });
});
