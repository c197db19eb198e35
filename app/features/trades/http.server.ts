import { localeFromRequest, translate, type Locale } from "../../lib/i18n";
import { tradesMessages, type TradesMessageKey } from "./messages";
import { TradeError } from "./trades.server";
import { OfferInputSchema, type OfferInput } from "./trades.schema";
import type { z } from "zod";

/** The reader's text for a TradeError, a zod issue key or any catalogue key. */
export function tradeText(locale: Locale, key: string, params?: Record<string, string | number>): string {
  const known = key in tradesMessages.ja ? (key as TradesMessageKey) : "badRequest";
  return translate(tradesMessages, locale, known, params);
}

/** Maps a thrown TradeError to `{ status, message }`; anything else is rethrown. */
export function describeTradeError(error: unknown, locale: Locale): { status: number; message: string; code: string } {
  if (error instanceof TradeError) {
    return { status: error.status, message: tradeText(locale, error.code, error.params), code: error.code };
  }
  throw error;
}

/** API handlers: a TradeError becomes `{ error }` JSON with its status. */
export async function apiCall<T>(request: Request, run: () => Promise<T>): Promise<T | Response> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof Response) throw error;
    const { status, message, code } = describeTradeError(error, localeFromRequest(request));
    return Response.json({ error: message, code }, { status });
  }
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
  const side = (name: string) =>
    form.getAll(name).map((value) => {
      const text = String(value);
      const at = text.lastIndexOf("*");
      return at < 0 ? { cardId: text, count: 1 } : { cardId: text.slice(0, at), count: text.slice(at + 1) };
    });
  return OfferInputSchema.safeParse({ give: side("give"), want: side("want"), comment: String(form.get("comment") ?? "") });
}
