import { sql } from "drizzle-orm";
import { boolean, check, index, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { users } from "./users";

/**
 * The game's trade rules as data (docs/decisions/018): each row is one change an administrator
 * made — a rarity or a pack becomes tradeable or not from `effective_at` — with a note saying
 * why. Rows are never edited; the rule at a moment is the latest change in effect then, over the
 * catalogue's default (`rarities.tradeable`; packs are tradeable unless a change says otherwise).
 */
export const tradeRuleChanges = pgTable(
  "trade_rule_changes",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    // rarity (target: a rarity code such as ☆☆) | pack (target: a pack id)
    scope: text("scope").notNull(),
    target: text("target").notNull(),
    tradeable: boolean("tradeable").notNull(),
    effectiveAt: timestamp("effective_at", { withTimezone: true }).notNull(),
    note: text("note").notNull(),
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("trade_rule_changes_scope_check", sql`${t.scope} in ('rarity', 'pack')`),
    index("trade_rule_changes_target_idx").on(t.scope, t.target, t.effectiveAt),
  ],
);
