import { z } from "#app/lib/zod.ts";
import { safeString } from "#app/lib/text.ts";
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

/**
 * An offer: the cards given and wanted, or 何でも可 on one side (giveAny / wantAny: no cards on
 * that side; the partner chooses any card of the same rarity from their own offers). The other
 * side then names at least one card; both sides 何でも可 is refused.
 */
export const OfferInputSchema = z
  .object({
    give: z.array(OfferCardSchema).max(MAX_CARDS_PER_SIDE, "tooManyCards"),
    want: z.array(OfferCardSchema).max(MAX_CARDS_PER_SIDE, "tooManyCards"),
    giveAny: z.boolean().default(false),
    wantAny: z.boolean().default(false),
    comment: safeString("badRequest")
      .default("")
      .transform((v) => v.replace(/\r\n?/g, "\n").replace(CONTROL, "").trim())
      .pipe(z.string().max(COMMENT_MAX_LENGTH, "commentTooLong")),
  })
  .superRefine((offer, ctx) => {
    if (offer.giveAny && offer.wantAny) ctx.addIssue({ code: "custom", path: ["want"], message: "anyBothSides" });
    else {
      if (!offer.giveAny && offer.give.length === 0) ctx.addIssue({ code: "custom", path: ["give"], message: "giveRequired" });
      if (!offer.wantAny && offer.want.length === 0) ctx.addIssue({ code: "custom", path: ["want"], message: "wantRequired" });
    }
  })
  // A side marked 何でも可 keeps no cards (a form may still post the ones picked before).
  .transform((offer) => ({ ...offer, give: offer.giveAny ? [] : offer.give, want: offer.wantAny ? [] : offer.want }));
export type OfferInput = z.infer<typeof OfferInputSchema>;

export const ReportInputSchema = z.object({
  reason: safeString("badRequest")
    .transform((v) => v.replace(CONTROL, "").trim())
    .pipe(z.string().min(1, "reportReasonRequired").max(REPORT_REASON_MAX_LENGTH, "reportReasonTooLong")),
});

/** At most this many cards in one "gives any of these" filter (a deck has at most 20 names). */
export const GIVE_ANY_MAX = 20;

/**
 * Board filters as they appear in the URL (?give=&want=&pack=&rarity=&giveAny=&cursor=).
 * `giveAny` is a comma-separated list of card ids: offers that give at least one of them (a deck
 * recipe's 「このデッキのカードをトレードで探す」 links here).
 */
const blankIsNone = (value: unknown) => (typeof value === "string" && value.trim() === "" ? undefined : value);
const filterText = (max: number) => z.preprocess(blankIsNone, z.string().trim().max(max).optional()).catch(undefined);
/** `a,b,a` → [a, b]: the first GIVE_ANY_MAX distinct ids; none → no filter. */
const idList = (value: unknown) => {
  if (typeof value !== "string") return value;
  const ids = [...new Set(value.split(",").map((id) => id.trim()).filter(Boolean))].slice(0, GIVE_ANY_MAX);
  return ids.length ? ids : undefined;
};

export const BoardFiltersSchema = z.object({
  give: filterText(64),
  giveAny: z.preprocess(idList, z.array(z.string().trim().min(1).max(64)).max(GIVE_ANY_MAX).optional()).catch(undefined),
  want: filterText(64),
  pack: filterText(64),
  rarity: filterText(16),
});
export type BoardFilters = z.infer<typeof BoardFiltersSchema>;

/**
 * The board's query, read by the one query reader (lib/query.ts): the filters, the cursor (checked
 * by the board's service), and on the page the view and マッチ's page number (checked by
 * `parseMatchPage`).
 */
export const BoardQuerySchema = BoardFiltersSchema.extend({
  cursor: z.string().optional(),
  view: z.enum(["all", "matches"]).catch("all"),
  page: z.string().optional(),
});

/**
 * A new offer's 求 side prefilled from the URL: `/trades/new?want=A1-096*2,A1-104` (card id and
 * copies, as the offer form posts them). Unparseable parts are skipped; the service checks the
 * cards themselves (offerPrefill in offers.server.ts).
 */
export function offerPrefillFromParams(params: URLSearchParams): { cardId: string; count: number }[] {
  const seen = new Map<string, number>();
  for (const part of params.getAll("want").flatMap((value) => value.split(","))) {
    const match = /^([A-Za-z0-9_.-]{1,64})(?:\*(\d{1,2}))?$/.exec(part.trim());
    if (!match || seen.has(match[1])) continue;
    seen.set(match[1], Math.min(MAX_COPIES, Math.max(MIN_COPIES, Number(match[2] ?? 1))));
  }
  return [...seen].map(([cardId, count]) => ({ cardId, count }));
}
