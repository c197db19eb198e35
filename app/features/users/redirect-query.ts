import { z } from "#app/lib/zod.ts";

/** A page's `?redirectTo=` as given: pass it through `safeRedirect` (safe-redirect.ts) before using it. */
export const RedirectQuerySchema = z.object({ redirectTo: z.string().optional() });
