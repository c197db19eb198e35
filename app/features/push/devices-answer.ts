import { z } from "#app/lib/zod.ts";

/** The subscription API's answer: the player's device count, when it says. */
export const DevicesAnswer = z.object({ devices: z.number().nullable().catch(null) }).catch({ devices: null });
