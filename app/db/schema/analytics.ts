import { bigint, date, index, integer, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";

/**
 * First-party analytics (docs/decisions/020). The migration makes analytics_events a table
 * partitioned by month on `ts` (drizzle-kit cannot say so), with a default partition so no row
 * is ever refused; old months are dropped whole by the retention job.
 */

/** One random salt per Asia/Tokyo day, shared by every instance, deleted after two days. */
export const analyticsSalts = pgTable("analytics_salts", {
  day: date("day").primaryKey(),
  salt: text("salt").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Raw events: page views, engagement (time a page was visible) and product events written by the
 * services. `visitor` is a 64-bit hash of (daily salt, IP, user agent, site); no IP, no user agent.
 */
export const analyticsEvents = pgTable(
  "analytics_events",
  {
    ts: timestamp("ts", { withTimezone: true }).notNull().defaultNow(),
    // pageview | engagement | offer_posted | matched | room_opened | terms_agreed | friend_request_sent | game_trade_sent | trade_completed | trade_cancelled
    kind: text("kind").notNull(),
    visitor: bigint("visitor", { mode: "bigint" }),
    path: text("path"),
    // What kind of page: home, card, article, deck, board, offer, …
    pageKind: text("page_kind"),
    referrerHost: text("referrer_host"),
    channel: text("channel"),
    utmSource: text("utm_source"),
    utmMedium: text("utm_medium"),
    utmCampaign: text("utm_campaign"),
    browser: text("browser"),
    os: text("os"),
    device: text("device"),
    screen: text("screen"),
    lang: text("lang"),
    engagedMs: integer("engaged_ms"),
    offerId: uuid("offer_id"),
    roomId: uuid("room_id"),
    userId: text("user_id"),
  },
  (t) => [index("analytics_events_ts_idx").on(t.ts), index("analytics_events_kind_ts_idx").on(t.kind, t.ts)],
);

/**
 * Which signed-in user a day's visitor hash belonged to: lets the rollup see that a reader of an
 * article later posted an offer. Deleted with the day's salt (two days), like the hash itself.
 */
export const analyticsVisitorUsers = pgTable(
  "analytics_visitor_users",
  {
    day: date("day").notNull(),
    visitor: bigint("visitor", { mode: "bigint" }).notNull(),
    userId: text("user_id").notNull(),
  },
  (t) => [primaryKey({ columns: [t.day, t.visitor, t.userId] })],
);

/**
 * Daily rollup per dimension (site, page, kind, source, channel, utm_*, browser, os, device,
 * lang, screen, hour, event, content): what the dashboard reads instead of raw rows.
 */
export const analyticsDaily = pgTable(
  "analytics_daily",
  {
    day: date("day").notNull(),
    dim: text("dim").notNull(),
    value: text("value").notNull(),
    visitors: integer("visitors").notNull().default(0),
    visits: integer("visits").notNull().default(0),
    pageviews: integer("pageviews").notNull().default(0),
    entries: integer("entries").notNull().default(0),
    exits: integer("exits").notNull().default(0),
    bounces: integer("bounces").notNull().default(0),
    durationS: bigint("duration_s", { mode: "number" }).notNull().default(0),
    engagedMs: bigint("engaged_ms", { mode: "number" }).notNull().default(0),
    postedVisitors: integer("posted_visitors").notNull().default(0),
    tradedVisitors: integer("traded_visitors").notNull().default(0),
  },
  // The dashboard reads one dimension over a range of days.
  (t) => [primaryKey({ columns: [t.day, t.dim, t.value] }), index("analytics_daily_dim_day_idx").on(t.dim, t.day)],
);

/** Which days are final (recomputed after midnight JST, never again). */
export const analyticsRollupDays = pgTable("analytics_rollup_days", {
  day: date("day").primaryKey(),
  finalisedAt: timestamp("finalised_at", { withTimezone: true }),
  computedAt: timestamp("computed_at", { withTimezone: true }).notNull().defaultNow(),
});

/** One row per offer: when it reached each step of the trade funnel, and its poster's first source that day. */
export const analyticsOfferFunnel = pgTable(
  "analytics_offer_funnel",
  {
    offerId: uuid("offer_id").primaryKey(),
    day: date("day").notNull(),
    postedAt: timestamp("posted_at", { withTimezone: true }).notNull(),
    matchedAt: timestamp("matched_at", { withTimezone: true }),
    roomOpenedAt: timestamp("room_opened_at", { withTimezone: true }),
    agreedAt: timestamp("agreed_at", { withTimezone: true }),
    completedAt: timestamp("completed_at", { withTimezone: true }),
    firstChannel: text("first_channel").notNull().default("direct"),
    firstSource: text("first_source").notNull().default(""),
  },
  (t) => [index("analytics_offer_funnel_day_idx").on(t.day)],
);
