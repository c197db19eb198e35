import { parseInput } from "#app/lib/validation.ts";
import { tradeErrorMessages } from "./error-messages";
import { OfferInputSchema, ReportInputSchema, type OfferInput } from "./trades.schema";

/** How the trade schemas' messages read (their issue messages are keys of the trade errors catalogue). */
const TRADE_INPUT = { messages: tradeErrorMessages, fallback: "badRequest" } as const;

/**
 * The offer form's one check, for a new offer and an edit, from the page form or the JSON API:
 * the offer, or a ValidationError naming each field (give, want, comment) in the reader's language.
 */
export function parseOfferInput(value: unknown): OfferInput {
  return parseInput(value, OfferInputSchema, TRADE_INPUT);
}

/** A report's reason, checked the same way. */
export function parseReportInput(value: unknown): { reason: string } {
  return parseInput(value, ReportInputSchema, TRADE_INPUT);
}

/**
 * The offer form posts each chosen card as `give` / `want` = "<cardId>*<count>" plus `comment`,
 * so it works before hydration too.
 */
/** The offer form's fields, unchecked (the schema checks them where they are used). */
export function offerFieldsFromForm(form: FormData): { give: unknown[]; want: unknown[]; giveAny: boolean; wantAny: boolean; comment: string } {
  const side = (name: string) =>
    form.getAll(name).map((value) => {
      const text = String(value);
      const at = text.lastIndexOf("*");
      return at < 0 ? { cardId: text, count: 1 } : { cardId: text.slice(0, at), count: text.slice(at + 1) };
    });
  // 何でも可 is a checkbox per side: present means on.
  return { give: side("give"), want: side("want"), giveAny: form.get("giveAny") !== null, wantAny: form.get("wantAny") !== null, comment: String(form.get("comment") ?? "") };
}
