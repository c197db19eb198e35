import { isImageUrl } from "#app/lib/image-url.ts";
import { z } from "#app/lib/zod.ts";
import { normaliseKeywords } from "#app/lib/keywords.ts";
import { isSafeText } from "#app/lib/text.ts";
import { ARTICLE_CATEGORIES } from "./categories";
import { articlesMessages, type ArticlesMessageKey } from "./messages";
import { fieldMessages } from "#app/lib/validation.ts";

export const TITLE_MAX = 200;
export const CONTENT_MAX = 100_000;
export const SLUG_MAX = 100;
export const THUMBNAIL_MAX = 2000;
export const KEYWORDS_MAX = 500;
/** docs/product-rules.md §5/§9: a meta description is at most 200 characters. */
export const META_DESCRIPTION_MAX = 200;

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const UUID_SHAPE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const key = (k: ArticlesMessageKey) => k;

const text = (max: number) =>
  z
    .string({ error: key("errInvalid") })
    .refine(isSafeText, { message: key("errNul") })
    .transform((value) => value.trim())
    .pipe(z.string().max(max, { message: key("errTooLong") }));

/**
 * The article form and the admin API (docs/product-rules.md §5 admin form schema): title and content required,
 * category one of docs/product-rules.md §6's, isPublic boolean, thumbnailUrl and slug optional. Issue messages are
 * keys of articlesMessages (docs/product-rules.md's texts). docs/product-rules.md §3's seoKeywords / seoMetaDescription are
 * accepted as aliases of keywords / metaDescription.
 */
const fields = {
  title: text(TITLE_MAX).pipe(z.string().min(1, { message: key("errTitleRequired") })),
  category: z.enum(ARTICLE_CATEGORIES, { error: key("errCategoryRequired") }),
  content: z
    .string({ error: key("errContentRequired") })
    .refine(isSafeText, { message: key("errNul") })
    .refine((value) => value.trim().length > 0, { message: key("errContentRequired") })
    .refine((value) => value.length <= CONTENT_MAX, { message: key("errTooLong") }),
  isPublic: z.boolean({ error: key("errInvalid") }),
  thumbnailUrl: z
    .union([text(THUMBNAIL_MAX), z.null()])
    .transform((value) => value || null)
    .refine((value) => value === null || isImageUrl(value), { message: key("errThumbnail") }),
  slug: z
    .union([text(SLUG_MAX), z.null()])
    .transform((value) => (value ? value.toLowerCase() : null))
    .refine((value) => value === null || (SLUG.test(value) && !UUID_SHAPE.test(value)), { message: key("errSlug") }),
  keywords: text(KEYWORDS_MAX).transform(normaliseKeywords),
  metaDescription: text(META_DESCRIPTION_MAX),
};

function aliases(input: unknown): unknown {
  if (!input || typeof input !== "object" || Array.isArray(input)) return input;
  const body = { ...(input as Record<string, unknown>) };
  if (body.keywords === undefined && body.seoKeywords !== undefined) body.keywords = body.seoKeywords;
  if (body.metaDescription === undefined && body.seoMetaDescription !== undefined) body.metaDescription = body.seoMetaDescription;
  return body;
}

/**
 * A new article. It starts 非公開 unless isPublic is sent as true (docs/product-rules.md §4 and
 * docs/decisions/012: the list shows a new article as 非公開).
 */
export const ArticleCreateSchema = z.preprocess(
  aliases,
  z.object({
    title: fields.title,
    category: fields.category,
    content: fields.content,
    isPublic: fields.isPublic.default(false),
    thumbnailUrl: fields.thumbnailUrl.default(null),
    slug: fields.slug.default(null),
    keywords: fields.keywords.default(""),
    metaDescription: fields.metaDescription.default(""),
  }),
);

/**
 * A change to an article: the fields sent are changed, the rest kept. `revision` is the one the
 * editor loaded; a save against an older revision is refused (someone else saved in between).
 */
export const ArticleUpdateSchema = z.preprocess(
  aliases,
  z.object({
    revision: z.number({ error: key("errInvalid") }).int().positive(),
    title: fields.title.optional(),
    category: fields.category.optional(),
    content: fields.content.optional(),
    isPublic: fields.isPublic.optional(),
    thumbnailUrl: fields.thumbnailUrl.optional(),
    slug: fields.slug.optional(),
    keywords: fields.keywords.optional(),
    metaDescription: fields.metaDescription.optional(),
  }),
);

export const VisibilitySchema = z.object({ isPublic: z.boolean({ error: key("errInvalid") }) });

export type ArticleCreateInput = z.output<typeof ArticleCreateSchema>;
export type ArticleUpdateInput = z.output<typeof ArticleUpdateSchema>;
export type ArticleField = "title" | "category" | "content" | "isPublic" | "thumbnailUrl" | "slug" | "keywords" | "metaDescription" | "revision";

export const ARTICLE_FIELD_MAX: Partial<Record<ArticleField, number>> = {
  title: TITLE_MAX,
  content: CONTENT_MAX,
  slug: SLUG_MAX,
  thumbnailUrl: THUMBNAIL_MAX,
  keywords: KEYWORDS_MAX,
  metaDescription: META_DESCRIPTION_MAX,
};

/** The first problem of each field, translated: `{ title: "タイトルを入力してください" }`. */
export function articleFieldErrors(error: z.ZodError, translateKey: (key: ArticlesMessageKey, params?: { max: number }) => string): Partial<Record<ArticleField, string>> {
  return fieldMessages(error, (key, params) => translateKey(key, { max: Number(params.max ?? 0) }), articlesMessages.ja, { fallback: "errInvalid", max: ARTICLE_FIELD_MAX });
}

/**
 * A slug from the title: its ASCII words (NFKC folds full-width letters), lower-case, joined by
 * hyphens. A title without any (Japanese only) gives "" and the service uses article-<id>.
 */
export function slugFromTitle(title: string): string {
  return title
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60)
    .replace(/-+$/, "");
}
