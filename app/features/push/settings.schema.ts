import { z } from "#app/lib/zod.ts";
import { NOTIFICATION_KINDS } from "#app/features/notifications/types.ts";
import { QUIET_CHANNELS } from "./preferences";

const Kind = z.object({ site: z.enum(["on", "off"]), push: z.enum(["instant", "off"]), mail: z.enum(["instant", "digest", "off"]) });
const Clock = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/);

/**
 * The settings form on the profile, as the page sends it (PUT /api/notifications/settings). A kind
 * left out keeps its saved choice: a page opened before a new kind existed can still save; no kind
 * at all is refused.
 */
export const NotificationSettingsSchema = z.object({
  channels: z
    .object(Object.fromEntries(NOTIFICATION_KINDS.map((k) => [k, Kind.optional()])) as Record<(typeof NOTIFICATION_KINDS)[number], z.ZodOptional<typeof Kind>>)
    // The page sends every kind it shows: none at all is not a settings form.
    .refine((channels) => Object.values(channels).some(Boolean)),
  quiet: z.union([z.null(), z.object({ start: Clock, end: Clock, mode: z.enum(["hold", "silent"]), exempt: z.array(z.enum(QUIET_CHANNELS)).max(QUIET_CHANNELS.length).default([]) })]),
  /** Left out: kept as saved. */
  previews: z.boolean().optional(),
});

export type NotificationSettingsInput = z.infer<typeof NotificationSettingsSchema>;
