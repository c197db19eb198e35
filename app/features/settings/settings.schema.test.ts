import { describe, expect, it } from "vitest";
import { SiteSettingsSchema } from "./settings.schema";

const valid = { metaDescription: "m", seoKeywords: "a, b", ogTitle: "t", ogDescription: "d", ogImage: "https://example.com/og.png" };

describe("SiteSettingsSchema", () => {
  it("refuses NUL bytes and lone surrogates in every field, as a bad request at that field", () => {
    for (const field of Object.keys(valid) as (keyof typeof valid)[]) {
      for (const bad of ["\u0000", "a\u0000b", "x\ud800"]) {
        const parsed = SiteSettingsSchema.safeParse({ ...valid, [field]: bad });
        expect(parsed.success, `${field} ${JSON.stringify(bad)}`).toBe(false);
        expect(parsed.error?.issues[0]).toMatchObject({ path: [field], message: expect.stringMatching(/^err/) });
      }
    }
    expect(SiteSettingsSchema.safeParse(valid).success).toBe(true);
  });
});
