import { sql } from "drizzle-orm";
import { boolean, check, index, jsonb, pgTable, smallint, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { sessions, users } from "./users";

/**
 * A browser's Web Push subscription (features/push): where the push service takes messages for
 * one device of one player. A push answered 404/410 deletes it; so does the browser's own
 * unsubscribe, the end of the session that subscribed (sign-out, a revoked device) and the
 * account's deletion.
 */
export const pushSubscriptions = pgTable(
  "push_subscriptions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    // The session that subscribed: while it lives, no other account may take the endpoint over
    // (features/push/subscriptions.server.ts). Null for rows made before sessions were recorded.
    sessionId: text("session_id").references(() => sessions.id, { onDelete: "cascade" }),
    endpoint: text("endpoint").notNull().unique(),
    p256dh: text("p256dh").notNull(),
    auth: text("auth").notNull(),
    userAgent: text("user_agent"),
    // The language the device asked in when it subscribed: its pushes are written in it.
    locale: text("locale").notNull().default("ja"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    lastSuccessAt: timestamp("last_success_at", { withTimezone: true }),
  },
  // The session index serves the cascade when a session ends.
  (t) => [index("push_subscriptions_user_idx").on(t.userId), index("push_subscriptions_session_idx").on(t.sessionId)],
);

/**
 * How a player wants to hear about each kind of notification (features/push/preferences.server.ts):
 * `channels` maps a kind to {site, push, mail}; a kind or channel not in it has its default.
 * Quiet hours are minutes after midnight in JST; during them a push is held until they end
 * ("hold") or sent without sound ("silent"), and a mail is held, unless the player exempted the channel.
 */
export const notificationPreferences = pgTable(
  "notification_preferences",
  {
    userId: text("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    channels: jsonb("channels").notNull().default(sql`'{}'::jsonb`),
    quietStart: smallint("quiet_start"),
    quietEnd: smallint("quiet_end"),
    quietMode: text("quiet_mode").notNull().default("hold"),
    // The channels ('push', 'mail') the player lets through their quiet hours; every other is held.
    quietExempt: text("quiet_exempt").array().notNull().default(sql`'{}'::text[]`),
    // Notifications and their push and mail quote a chat message's first line unless turned off.
    messagePreviews: boolean("message_previews").notNull().default(true),
    // The language of the player's notification mail (the one they last saved the settings in).
    locale: text("locale").notNull().default("ja"),
    // The end of the last daily digest's window: the next digest covers what came after it.
    digestSentAt: timestamp("digest_sent_at", { withTimezone: true }),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("notification_preferences_quiet_mode_check", sql`${t.quietMode} in ('hold', 'silent')`),
    check("notification_preferences_quiet_exempt_check", sql`${t.quietExempt} <@ array['push', 'mail']::text[]`),
    check(
      "notification_preferences_quiet_range_check",
      sql`(${t.quietStart} is null and ${t.quietEnd} is null) or (${t.quietStart} between 0 and 1439 and ${t.quietEnd} between 0 and 1439)`,
    ),
  ],
);
