import { AppError, type ErrorTable } from "#app/lib/errors.ts";
import { seoMessages, type SeoMessageKey } from "./messages";

/** What the SEO suggestion can refuse (docs/decisions/009). */
const SEO_ERRORS = {
  suggest_empty: [400, "suggestEmpty"],
  suggest_failed: [500, "suggestFailed"],
} as const satisfies ErrorTable<SeoMessageKey>;

export class SeoError extends AppError<keyof typeof SEO_ERRORS> {
  constructor(code: keyof typeof SEO_ERRORS) {
    super(seoMessages, SEO_ERRORS, code);
  }
}
