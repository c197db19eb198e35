import { renderToStaticMarkup } from "react-dom/server";
import { createMemoryRouter, Link, RouterProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { ListLink, ListLinkNavigation } from "./list-link";

function Grid({ withLink }: { withLink: boolean }) {
  const className = "block rounded-card";
  return withLink ? (
    <Link to="/cards/A1-001" className={className}>
      <span>フシギダネ</span>
    </Link>
  ) : (
    <ListLinkNavigation>
      <ListLink to="/cards/A1-001" className={className}>
        <span>フシギダネ</span>
      </ListLink>
    </ListLinkNavigation>
  );
}

const render = (withLink: boolean) =>
  renderToStaticMarkup(<RouterProvider router={createMemoryRouter([{ path: "/cards", element: <Grid withLink={withLink} /> }], { initialEntries: ["/cards?pack=dialga"] })} />);

describe("a link in a long list", () => {
  it("is the markup of a <Link> to the same path, route discovery included", () => {
    expect(render(false)).toBe(render(true));
    expect(render(false)).toBe('<a class="block rounded-card" href="/cards/A1-001" data-discover="true"><span>フシギダネ</span></a>');
  });
});
