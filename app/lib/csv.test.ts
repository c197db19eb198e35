import { describe, expect, it } from "vitest";
import { csvField, csvLine } from "./csv";

describe("CSV fields of the site's exports", () => {
  it("quotes a comma, a quote or a line break, and leaves plain text and numbers as they are", () => {
    expect(csvLine(["ピカチュウex", 3, "a,b", 'say "hi"', "two\nlines", null])).toBe('ピカチュウex,3,"a,b","say ""hi""","two\nlines",');
  });

  it("defuses what a spreadsheet would read as a formula, the tab and carriage return included", () => {
    for (const start of ["=", "+", "-", "@", "\t", "\r"]) expect(csvField(`${start}SUM(A1)`)).toBe(`"'${start}SUM(A1)"`);
    expect(csvField("A=1")).toBe("A=1");
  });
});
