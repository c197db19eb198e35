import { renderToStaticMarkup } from "react-dom/server";
import { createMemoryRouter, Link, RouterProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { CardLink, useCardLinkClick } from "./card-links";

function Grid({ withLink }: { withLink: boolean }) {
  const onClick = useCardLinkClick();
  const className = "block rounded-card";
  return withLink ? (
    <Link to="/cards/A1-001" className={className}>
      <span>フシギダネ</span>
    </Link>
  ) : (
    <CardLink href="/cards/A1-001" onClick={onClick} className={className}>
      <span>フシギダネ</span>
    </CardLink>
  );
}

const render = (withLink: boolean) =>
  renderToStaticMarkup(<RouterProvider router={createMemoryRouter([{ path: "/cards", element: <Grid withLink={withLink} /> }], { initialEntries: ["/cards?pack=dialga"] })} />);

describe("a card's link in a grid", () => {
  it("is the markup of a <Link> to the same path, route discovery included", () => {
    expect(render(false)).toBe(render(true));
    expect(render(false)).toBe('<a class="block rounded-card" href="/cards/A1-001" data-discover="true"><span>フシギダネ</span></a>');
  });
});
