import { renderToStaticMarkup } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import { WantList } from "./want-list";

describe("the ほしいカード list", () => {
  it("names each card with its print, so two prints of one name and rarity are told apart", () => {
    const Page = () => (
      <WantList
        cards={[
          { cardId: "A1-053", name: "ゼニガメ", nameEn: "Squirtle", rarity: "◆", setCode: "A1", number: 53 },
          { cardId: "B1a-017", name: "ゼニガメ", nameEn: "Squirtle", rarity: "◆", setCode: "B1a", number: 17 },
          { cardId: "X-1", name: "なぞのカード", nameEn: "", rarity: "◆", setCode: null, number: null },
        ]}
      />
    );
    // Its ほしい buttons are forms of the data router.
    const Stub = createRoutesStub([{ path: "/notifications", Component: Page }]);
    const html = renderToStaticMarkup(<Stub initialEntries={["/notifications"]} />);
    expect(html).toMatch(/href="\/cards\/A1-053"[^>]*>ゼニガメ <span class="text-amber-700">◆<\/span> <span[^>]*>A1 053<\/span><\/a>/);
    expect(html).toMatch(/href="\/cards\/B1a-017"[^>]*>ゼニガメ <span class="text-amber-700">◆<\/span> <span[^>]*>B1a 017<\/span><\/a>/);
    expect(html).toMatch(/href="\/cards\/X-1"[^>]*>なぞのカード <span class="text-amber-700">◆<\/span><\/a>/);
    // Each remove button says which card it takes off: three buttons reading the same would not.
    expect(html).toContain('aria-label="ゼニガメ ◆ A1 053をほしいカードから外す"');
    expect(html).toContain('aria-label="ゼニガメ ◆ B1a 017をほしいカードから外す"');
    expect(html).toContain('aria-label="なぞのカード ◆をほしいカードから外す"');
  });
});
