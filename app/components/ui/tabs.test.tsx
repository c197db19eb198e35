import { renderToStaticMarkup } from "react-dom/server";
import { createMemoryRouter, RouterProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { tabAfterKey, TabList } from "./tabs";

describe("tabs", () => {
  it("moves with the arrows (wrapping), Home and End, and ignores other keys", () => {
    expect(tabAfterKey("ArrowRight", 0, 3)).toBe(1);
    expect(tabAfterKey("ArrowRight", 2, 3)).toBe(0);
    expect(tabAfterKey("ArrowLeft", 0, 3)).toBe(2);
    expect(tabAfterKey("ArrowLeft", 2, 3)).toBe(1);
    expect(tabAfterKey("Home", 2, 3)).toBe(0);
    expect(tabAfterKey("End", 0, 3)).toBe(2);
    expect(tabAfterKey("Enter", 0, 3)).toBeNull();
    expect(tabAfterKey("ArrowRight", 0, 0)).toBeNull();
  });

  it("renders a named tablist where only the selected tab is in the tab order and each tab names its panel", () => {
    const html = renderToStaticMarkup(
      <TabList
        label="表示"
        tabs={[
          { id: "edit", label: "編集" },
          { id: "preview", label: "プレビュー", badge: <span>*</span> },
        ]}
        selected="edit"
        onSelect={() => {}}
        tabId={(id) => `t-${id}`}
        panelId={(id) => `p-${id}`}
        tabClassName={(selected) => (selected ? "on" : "off")}
      />,
    );
    expect(html).toContain('role="tablist" aria-label="表示"');
    expect(html).toMatch(/type="button" role="tab" aria-selected="true" aria-controls="p-edit" tabindex="0" id="t-edit" class="on">編集</);
    expect(html).toMatch(/role="tab" aria-selected="false" aria-controls="p-preview" tabindex="-1" id="t-preview" class="off">プレビュー<span>\*<\/span>/);
  });

  it("renders link tabs (one URL per tab) when given hrefs", () => {
    const router = createMemoryRouter([
      {
        path: "/",
        element: <TabList label="管理" tabs={[{ id: "a", label: "A" }, { id: "b", label: "B" }]} selected="b" onSelect={() => {}} href={(id) => `/?tab=${id}`} tabId={(id) => `x-${id}`} panelId={() => "panel"} tabClassName={() => ""} />,
      },
    ]);
    const html = renderToStaticMarkup(<RouterProvider router={router} />);
    const links = html.match(/<a [^>]*>/g) ?? [];
    expect(links).toHaveLength(2);
    for (const part of ['href="/?tab=a"', 'role="tab"', 'aria-selected="false"', 'tabindex="-1"', 'id="x-a"']) expect(links[0]).toContain(part);
    for (const part of ['href="/?tab=b"', 'role="tab"', 'aria-selected="true"', 'tabindex="0"', 'aria-controls="panel"']) expect(links[1]).toContain(part);
  });
});
