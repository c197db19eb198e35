import { z } from "#app/lib/zod.ts";

/**
 * The catalogue's pullRates.json: per set code, per pack kind ("Regular Pack", "Rare Pack",
 * "Regular Pack +1" …), the kind's appearance rate (%) and each slot's rarity rates (%).
 */
export const PullRatesSchema = z.record(
  z.string(),
  z.record(
    z.string(),
    z.object({
      appearance_rate: z.number().min(0).max(100),
      slots: z.record(z.string(), z.record(z.string(), z.number().min(0).max(100))),
    }),
  ),
);
export type PullRates = z.infer<typeof PullRatesSchema>;
