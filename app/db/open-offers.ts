import { and, eq, gt, sql, type SQL } from "drizzle-orm";
import { tradeOffers } from "#app/db/schema/index.ts";

/**
 * The board's "open now" rule, in one place: an offer is open while its status says 募集中 and
 * its expiry has not passed. The expired status is written lazily (when the owner next acts, or
 * the sweep), so a row may still say `open` after its expiry: every query that means "open" asks
 * both. Decision 005 (docs/decisions/005-trade-board-rules-expiry-and-matching.md).
 */

/** `alias.status = 'open' and alias.expires_at > now()`, for raw SQL over `trade_offers <alias>`. */
export function offerOpenNow(alias = "o"): SQL {
  const o = sql.raw(alias);
  return sql`(${o}.status = 'open' and ${o}.expires_at > now())`;
}

/** The row still says open but its expiry has passed: it is expired, not yet written as such. */
export function offerExpiredNow(alias = "o"): SQL {
  const o = sql.raw(alias);
  return sql`(${o}.status = 'open' and ${o}.expires_at <= now())`;
}

/** The same rule for the query builder over `tradeOffers`. */
export function openOfferWhere(): SQL | undefined {
  return and(eq(tradeOffers.status, "open"), gt(tradeOffers.expiresAt, sql`now()`));
}
