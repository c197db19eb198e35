import { renderToStaticMarkup } from "react-dom/server";
import { createMemoryRouter, RouterProvider } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import { WantChipButton } from "./want-button";

// Form needs a data router; the button is rendered as the board's card chip renders it.
const render = (wanted: boolean | null) => {
  const router = createMemoryRouter([{ path: "/trades", element: <WantChipButton cardId="A1-001" name="フシギダネ" wanted={wanted} returnTo="/trades?rarity=◆" /> }], {
    initialEntries: ["/trades"],
  });
  return renderToStaticMarkup(<RouterProvider router={router} />);
};

afterEach(() => {
  vi.unstubAllEnvs();
});

describe("the ほしい button on a card chip", () => {
  it("signed out: a link to log in that comes back to the board, named for the card", () => {
    const html = render(null);
    expect(html).toMatch(/<a [^>]*href="\/login\?redirectTo=%2Ftrades%3Frarity%3D%E2%97%86"/);
    expect(html).toContain('aria-label="ログインしてフシギダネをほしいカードに追加"');
    expect(html).not.toContain("<form");
  });

  it("not on the list yet: a form adding the card, named for it", () => {
    const html = render(false);
    // The card, the intent and the way back are the query of the form's action (one element, no hidden fields).
    expect(html).toMatch(/<form [^>]*action="\/wanted-cards\?cardId=A1-001&amp;intent=add&amp;redirectTo=%2Ftrades%3Frarity%3D%E2%97%86" method="post"/);
    expect(html).toContain('aria-label="フシギダネをほしいカードに追加"');
    expect(html).toContain('data-wanted="false"');
    // A plain form that comes back to the board; the fetcher adds answer=inline to the query when it sends it.
    expect(html).not.toContain("<input");
    // A refusal's alert is put in only when there is one.
    expect(html).not.toContain('role="alert"');
  });

  it("the browser's chip (with its fetcher) draws the server's markup, so hydration keeps it", () => {
    const server = [render(false), render(true)];
    vi.stubEnv("SSR", false);
    expect([render(false), render(true)]).toEqual(server);
  });

  it("already on the list: shows 追加済み and a press takes it off", () => {
    const html = render(true);
    expect(html).toContain("追加済み");
    expect(html).toContain("intent=remove");
    expect(html).toContain('aria-label="フシギダネはほしいカードに追加済み（押すと外します）"');
    expect(html).toContain('data-wanted="true"');
  });
});
