import { AppError, type ErrorTable } from "#app/lib/errors.ts";
import type { Params } from "#app/lib/i18n.tsx";
import { articlesMessages, type ArticlesMessageKey } from "./messages";

const ARTICLE_ERRORS = {
  not_found: [404, "errNotFound"],
  slug_taken: [409, "errSlugTaken"],
  conflict: [409, "errConflict"],
} as const satisfies ErrorTable<ArticlesMessageKey>;

export type ArticleErrorCode = keyof typeof ARTICLE_ERRORS;

export class ArticleError extends AppError<ArticleErrorCode> {
  constructor(code: ArticleErrorCode, params?: Params) {
    super(articlesMessages, ARTICLE_ERRORS, code, params);
  }
}
