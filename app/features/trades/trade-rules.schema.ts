import { z } from "#app/lib/zod.ts";
import { TRADE_RULE_SCOPES } from "./trade-rules";
import { tradeRulesMessages, type TradeRulesMessageKey } from "./trade-rules-messages";
import { isPlainLine } from "#app/lib/text.ts";
import { tokyoLocalToIso } from "#app/lib/tokyo-time.ts";
import { fieldKeys } from "#app/lib/validation.ts";

export const TRADE_RULE_NOTE_MAX = 200;

const key = (k: TradeRulesMessageKey) => k;

/**
 * A datetime-local value (`2026-12-01T10:00`) read as Japan time (the game's announcements are in
 * JST) by the one strict reader: an impossible date or time is refused at its field, never rolled over.
 */
function tokyoLocal(value: string, ctx: z.core.$RefinementCtx, invalid: TradeRulesMessageKey): string {
  const iso = tokyoLocalToIso(value);
  if (iso) return iso;
  ctx.addIssue({ code: "custom", message: key(invalid) });
  return z.NEVER;
}

/**
 * One change from the admin トレードルール form: a rarity or a pack becomes tradeable or not from
 * `effectiveAt`; "not tradeable until" adds the reopening as a second change (`until`).
 */
export const TradeRuleChangeSchema = z
  .object({
    scope: z.enum(TRADE_RULE_SCOPES, { message: key("errScope") }),
    target: z.string({ message: key("errTarget") }).trim().min(1, { message: key("errTarget") }).max(64, { message: key("errTarget") }),
    tradeable: z.boolean({ message: key("errInvalidRequest") }),
    effectiveAt: z
      .string({ message: key("errEffectiveAt") })
      .min(1, { message: key("errEffectiveAt") })
      .transform((value, ctx) => tokyoLocal(value, ctx, "errEffectiveAtInvalid")),
    until: z
      .string({ message: key("errUntilInvalid") })
      .optional()
      .transform((value, ctx) => (value ? tokyoLocal(value, ctx, "errUntilInvalid") : null)),
    note: z
      .string({ message: key("errNoteRequired") })
      .trim()
      .refine(isPlainLine, { message: key("errNoteControl") })
      .min(1, { message: key("errNoteRequired") })
      .max(TRADE_RULE_NOTE_MAX, { message: key("errNoteTooLong") }),
  })
  .superRefine((value, ctx) => {
    if (value.until === null) return;
    if (value.tradeable) ctx.addIssue({ code: "custom", path: ["until"], message: key("errUntilOnlyClosing") });
    else if (value.until <= value.effectiveAt) ctx.addIssue({ code: "custom", path: ["until"], message: key("errUntilOrder") });
  });

export type TradeRuleChangeInput = z.infer<typeof TradeRuleChangeSchema>;
export type TradeRuleField = "scope" | "target" | "tradeable" | "effectiveAt" | "until" | "note";

/** Each field's first problem, as catalogue keys. */
export function tradeRuleFieldErrors(error: z.ZodError): Partial<Record<TradeRuleField, TradeRulesMessageKey>> {
  return fieldKeys(error, tradeRulesMessages.ja, { fallback: "errInvalidRequest", root: "scope" });
}
