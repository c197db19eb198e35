import { z } from "../../lib/zod";

/** The /notifications page's one form: 既読にする (one id) or すべて既読. */
export const NotificationActionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("read"), id: z.string().uuid() }),
  z.object({ intent: z.literal("read-all") }),
]);

/** `?before=<ISO time>_<uuid>`: the next page of the inbox. */
export const NotificationCursorSchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}T[\d:.]+Z_[0-9a-f-]{36}$/)
  .transform((raw) => {
    const at = raw.slice(0, raw.indexOf("_"));
    return { at, id: raw.slice(raw.indexOf("_") + 1) };
  });

/** ほしいカードに追加 / から外す. */
export const WantedCardFormSchema = z.object({
  cardId: z.string().min(1).max(64),
  intent: z.enum(["add", "remove"]),
  redirectTo: z.string().max(500).optional(),
});
