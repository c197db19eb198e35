import { translate, type Locale } from "../../lib/i18n";
import { tradesMessages, type TradesMessageKey } from "./messages";
import { OfferInputSchema, type OfferInput } from "./trades.schema";
import type { z } from "../../lib/zod";

/** The reader's text for a zod issue key of the trade schemas or any catalogue key. */
export function tradeText(locale: Locale, key: string, params?: Record<string, string | number>): string {
  const known = key in tradesMessages.ja ? (key as TradesMessageKey) : "badRequest";
  return translate(tradesMessages, locale, known, params);
}

export function zodMessage(error: z.ZodError, locale: Locale): string {
  const first = error.issues[0];
  return tradeText(locale, first?.message ?? "badRequest");
}

/**
 * The offer form posts each chosen card as `give` / `want` = "<cardId>*<count>" plus `comment`,
 * so it works before hydration too.
 */
export function offerInputFromForm(form: FormData): z.ZodSafeParseResult<OfferInput> {
  return OfferInputSchema.safeParse(offerFieldsFromForm(form));
}

/** The offer form's fields, unchecked (the schema checks them where they are used). */
export function offerFieldsFromForm(form: FormData): { give: unknown[]; want: unknown[]; comment: string } {
  const side = (name: string) =>
    form.getAll(name).map((value) => {
      const text = String(value);
      const at = text.lastIndexOf("*");
      return at < 0 ? { cardId: text, count: 1 } : { cardId: text.slice(0, at), count: text.slice(at + 1) };
    });
  return { give: side("give"), want: side("want"), comment: String(form.get("comment") ?? "") };
}
