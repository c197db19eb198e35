import { z } from "../../lib/zod";
import { safeString } from "../../lib/text";
import {
  COMMENT_MAX_LENGTH,
  MAX_CARDS_PER_SIDE,
  MAX_COPIES,
  MIN_COPIES,
  REPORT_REASON_MAX_LENGTH,
} from "./rules";

// Messages are keys of the trades catalogue (messages.ts): the form and the API translate them.

const OfferCardSchema = z.object({
  cardId: safeString("unknownCard").trim().min(1, "unknownCard").max(64, "unknownCard"),
  count: z.coerce.number().int("copiesRange").min(MIN_COPIES, "copiesRange").max(MAX_COPIES, "copiesRange"),
});

// Line breaks are kept; other control characters are dropped so the text stays plain.
const CONTROL = /[\u0000-\u0009\u000b\u000c\u000e-\u001f\u007f]/g;

export const OfferInputSchema = z.object({
  give: z.array(OfferCardSchema).min(1, "giveRequired").max(MAX_CARDS_PER_SIDE, "tooManyCards"),
  want: z.array(OfferCardSchema).min(1, "wantRequired").max(MAX_CARDS_PER_SIDE, "tooManyCards"),
  comment: safeString("badRequest")
    .default("")
    .transform((v) => v.replace(/\r\n?/g, "\n").replace(CONTROL, "").trim())
    .pipe(z.string().max(COMMENT_MAX_LENGTH, "commentTooLong")),
});
export type OfferInput = z.infer<typeof OfferInputSchema>;

export const ReportInputSchema = z.object({
  reason: safeString("badRequest")
    .transform((v) => v.replace(CONTROL, "").trim())
    .pipe(z.string().min(1, "reportReasonRequired").max(REPORT_REASON_MAX_LENGTH, "reportReasonTooLong")),
});

/** Board filters as they appear in the URL (?give=&want=&pack=&rarity=&cursor=). */
export const BoardFiltersSchema = z.object({
  give: z.string().trim().max(64).optional().catch(undefined),
  want: z.string().trim().max(64).optional().catch(undefined),
  pack: z.string().trim().max(64).optional().catch(undefined),
  rarity: z.string().trim().max(16).optional().catch(undefined),
});
export type BoardFilters = z.infer<typeof BoardFiltersSchema>;

/** Reads board filters from URL search params; blank values mean "no filter". */
export function boardFiltersFromParams(params: URLSearchParams): BoardFilters {
  const pick = (name: string) => params.get(name)?.trim() || undefined;
  return BoardFiltersSchema.parse({ give: pick("give"), want: pick("want"), pack: pick("pack"), rarity: pick("rarity") });
}
