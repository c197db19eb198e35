import { sql } from "drizzle-orm";
import { check, index, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { users } from "./users";

/**
 * フレンド募集 (docs/decisions/043-friend-board.md): one live post per player. The friend ID shown
 * is read from the poster's profile when the board is read; a post never stores one.
 */
export const friendPosts = pgTable(
  "friend_posts",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    ownerId: text("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    // open | closed | expired (expired is written lazily: "open" past expires_at is expired too)
    status: text("status").notNull().default("open"),
    // trade | challenge | battle | other
    purposes: text("purposes").array().notNull(),
    comment: text("comment").notNull().default(""),
    // Set codes (packs.set_code) of what the poster opens or collects.
    setCodes: text("set_codes").array().notNull().default(sql`'{}'::text[]`),
    // Board order: posted or last raised.
    raisedAt: timestamp("raised_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("friend_posts_status_check", sql`${t.status} in ('open', 'closed', 'expired')`),
    check("friend_posts_purposes_check", sql`cardinality(${t.purposes}) > 0 and ${t.purposes} <@ array['trade', 'challenge', 'battle', 'other']::text[]`),
    // One live post per player, held by the database (a post past its expiry is written expired first).
    uniqueIndex("friend_posts_one_open_idx").on(t.ownerId).where(sql`status = 'open'`),
    // The board: open posts, last raised first. The expiry sweep keeps "open" close to "live", so the
    // board walks this index and checks the expiry of the few rows it reads (no index on expires_at:
    // the planner would take it and sort every live post instead of walking the first page).
    index("friend_posts_board_idx").on(t.raisedAt.desc(), t.id.desc()).where(sql`status = 'open'`),
  ],
);

/** 申請しました: a player says they sent the poster a friend request in the game; once per post and player. */
export const friendApplications = pgTable(
  "friend_applications",
  {
    postId: uuid("post_id")
      .notNull()
      .references(() => friendPosts.id, { onDelete: "cascade" }),
    applicantId: text("applicant_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.postId, t.applicantId] })],
);
