import { safeString } from "#app/lib/text.ts";
import { isImageUrl } from "#app/lib/image-url.ts";
import { z } from "#app/lib/zod.ts";
import { fieldMessages } from "#app/lib/validation.ts";
import { normaliseKeywords } from "#app/lib/keywords.ts";
import { settingsMessages, type SettingsMessageKey } from "./messages";

export { normaliseKeywords };

/** docs/product-rules.md §3 "Site settings": the five fields, in their JSON names. */
export type SiteSettings = {
  metaDescription: string;
  seoKeywords: string;
  ogTitle: string;
  ogDescription: string;
  ogImage: string;
};

export const EMPTY_SITE_SETTINGS: SiteSettings = { metaDescription: "", seoKeywords: "", ogTitle: "", ogDescription: "", ogImage: "" };

/** docs/product-rules.md §9: a meta description is at most 200 characters; the OG description follows it. */
export const META_DESCRIPTION_MAX = 200;
export const OG_TITLE_MAX = 100;
export const KEYWORDS_MAX = 500;
export const OG_IMAGE_MAX = 2000;

/** An OG image is empty or an image URL (the one rule of lib/image-url.ts). */
const isOgImage = (value: string) => value === "" || isImageUrl(value);

const key = (k: SettingsMessageKey) => k;
const text = (max: number, message: SettingsMessageKey) => safeString(key("errInvalidRequest")).trim().max(max, { message: key(message) });

/**
 * The settings form and `PUT /api/admin/settings`. Issue messages are keys of settingsMessages
 * (the limit is the field's `{max}`), shown at the field.
 */
export const SiteSettingsSchema = z.object({
  metaDescription: text(META_DESCRIPTION_MAX, "errMetaDescriptionTooLong"),
  seoKeywords: text(KEYWORDS_MAX, "errKeywordsTooLong").transform(normaliseKeywords),
  ogTitle: text(OG_TITLE_MAX, "errOgTitleTooLong"),
  ogDescription: text(META_DESCRIPTION_MAX, "errOgDescriptionTooLong"),
  ogImage: text(OG_IMAGE_MAX, "errOgImage").refine(isOgImage, { message: key("errOgImage") }),
});

export type SiteSettingsField = keyof SiteSettings;

export const FIELD_MAX: Record<SiteSettingsField, number> = {
  metaDescription: META_DESCRIPTION_MAX,
  seoKeywords: KEYWORDS_MAX,
  ogTitle: OG_TITLE_MAX,
  ogDescription: META_DESCRIPTION_MAX,
  ogImage: OG_IMAGE_MAX,
};

/** The first problem of each field, translated: `{ ogImage: "OG画像URLは…" }`. */
export function settingsFieldErrors(error: z.ZodError, translateKey: (key: SettingsMessageKey, params?: { max: number }) => string): Partial<Record<SiteSettingsField, string>> {
  return fieldMessages(error, (key, params) => translateKey(key, { max: Number(params.max ?? 0) }), settingsMessages.ja, { fallback: "errInvalidRequest", max: FIELD_MAX, only: Object.keys(FIELD_MAX) });
}
