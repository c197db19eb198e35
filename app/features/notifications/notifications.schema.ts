import { isIsoInstant } from "#app/lib/tokyo-time.ts";
import { z } from "#app/lib/zod.ts";

/** The /notifications page's one form: 既読にする (one id) or すべて既読. */
export const NotificationActionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("read"), id: z.string().uuid() }),
  z.object({ intent: z.literal("read-all") }),
]);

/** `?before=<ISO time>_<uuid>`: the next page of the inbox. A damaged one is a 400, never a database error. */
export const NotificationCursorSchema = z
  .string()
  .max(80)
  .regex(/^\d{4}-\d{2}-\d{2}T[\d:.]+Z_[^_]+$/)
  .transform((raw) => ({ at: raw.slice(0, raw.indexOf("_")), id: raw.slice(raw.indexOf("_") + 1) }))
  .refine((cursor) => isIsoInstant(cursor.at) && z.uuid().safeParse(cursor.id).success);

/** ほしいカードに追加 / から外す. */
export const WantedCardFormSchema = z.object({
  cardId: z.string().min(1).max(64),
  intent: z.enum(["add", "remove"]),
  redirectTo: z.string().max(500).optional(),
  // "inline": the hydrated chip's fetcher, answered with data instead of a redirect (it stays on its page).
  answer: z.literal("inline").optional(),
});
