import { renderToStaticMarkup } from "react-dom/server";
import { MemoryRouter } from "react-router";
import { describe, expect, it } from "vitest";
import { ListForm } from "#app/components/ui/list-link.tsx";
import type { OfferListItem } from "#app/features/trades/types.ts";
import { OfferCard } from "./offer-card";

const offer: OfferListItem = {
  id: "0b6f3c1e-5a4d-4d7e-9a43-6a1f4b2c9d10",
  ownerId: "owner",
  ownerName: "サトシ",
  ownerCompletedTrades: 3,
  ownerLastActiveAt: "2026-01-01T00:00:00.000Z",
  status: "open",
  comment: "",
  createdAt: "2026-01-01T00:00:00.000Z",
  bumpedAt: "2026-01-01T00:00:00.000Z",
  giveAny: false,
  wantAny: true,
  // A chip sends only the fields its card has: no art here, a trainer, and one with stored art.
  give: [
    { cardId: "A1-004", count: 2, name: "フシギバナex", rarity: "◆◆◆◆", element: "grass", setCode: "A1", number: 4 },
    { cardId: "A1-219", count: 1, name: "エリカ", rarity: "◆◆◆", cardType: "supporter", setCode: "A1", number: 219 },
    { cardId: "A1-033", count: 1, name: "ヒトカゲ", rarity: "◆", element: "fire", storedImage: "/uploads/cards/a1-033" },
  ],
  want: [],
};

const render = (highlight?: Set<string>) =>
  renderToStaticMarkup(
    <MemoryRouter>
      <OfferCard offer={offer} now="2026-01-01T00:05:00.000Z" highlightGive={highlight} />
    </MemoryRouter>,
  );

describe("an offer card on a list", () => {
  it("names each card with its rarity, print and copies, linked to the card", () => {
    const html = render();
    expect(html).toMatch(/<a href="\/cards\/A1-004"[^>]*>フシギバナex<\/a><span class="text-rarity">◆◆◆◆<\/span><span class="offer-chip-print">A1 004<\/span><span class="offer-chip-count"> ×2<\/span>/);
    expect(html).toContain("A1 219");
    expect(html).toContain('data-testid="any-card"');
  });

  it("draws a card without art as its frame, coloured by type or as a trainer, and one with art as a picture", () => {
    const html = render();
    expect(html).toContain('<span aria-hidden="true" class="card-thumb card-thumb-frame" data-frame="grass"><span></span></span>');
    expect(html).toContain('data-frame="trainer"');
    expect(html).toMatch(/<span class="card-thumb"><img src="\/uploads\/cards\/a1-033-thumb.webp" srcSet="[^"]*-full.webp 480w" sizes="28px" alt=""/);
  });

  it("marks the cards a filter or マッチ looked for", () => {
    const html = render(new Set(["A1-219"]));
    expect(html.match(/class="offer-chip offer-chip-match"/g)).toHaveLength(1);
    expect(html).toMatch(/class="offer-chip offer-chip-match"><span[^>]*data-frame="trainer"/);
  });
});

describe("a list's POST form", () => {
  it("is a plain form to its action that the browser can post before hydration", () => {
    const html = renderToStaticMarkup(
      <ListForm action="/trades/abc">
        <button type="submit">交渉する</button>
      </ListForm>,
    );
    expect(html).toMatch(/^<form [^>]*><button type="submit">交渉する<\/button><\/form>$/);
    expect(html).toContain('action="/trades/abc"');
    expect(html).toContain('method="post"');
    // React Router loads the action's route code for a form it sees, as for its own <Form>.
    expect(html).toContain('data-discover="true"');
  });
});
