import { z } from "../../lib/zod";
import { TRADE_RULE_SCOPES } from "./trade-rules";
import { tradeRulesMessages, type TradeRulesMessageKey } from "./trade-rules-messages";
import { fieldKeys } from "../../lib/validation";

export const TRADE_RULE_NOTE_MAX = 200;

const key = (k: TradeRulesMessageKey) => k;
/** `2026-12-01T10:00` from a datetime-local field, read as Japan time (the game's announcements are in JST). */
const JST_LOCAL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/;

export function jstLocalToIso(value: string): string | null {
  if (!JST_LOCAL.test(value)) return null;
  const ms = Date.parse(`${value}:00+09:00`);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString();
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
    effectiveAt: z.string({ message: key("errEffectiveAt") }).transform((value, ctx) => {
      const iso = jstLocalToIso(value);
      if (!iso) {
        ctx.addIssue({ code: "custom", message: key("errEffectiveAt") });
        return z.NEVER;
      }
      return iso;
    }),
    until: z
      .string()
      .optional()
      .transform((value, ctx) => {
        if (!value) return null;
        const iso = jstLocalToIso(value);
        if (!iso) {
          ctx.addIssue({ code: "custom", message: key("errUntilOrder") });
          return z.NEVER;
        }
        return iso;
      }),
    note: z
      .string({ message: key("errNoteRequired") })
      .trim()
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
