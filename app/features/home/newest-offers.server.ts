import type { Db } from "../../db/client.server";
import { createCache, scopeOf } from "../../lib/cache.server";
import { changeVersion } from "../../lib/change-bus.server";
import { blockedEitherWay } from "../blocks/blocks.server";
import { listBoard } from "../trades/board.server";
import type { OfferView } from "../trades/types";

/**
 * The home page's newest offers are the board's first few, the same for everyone but the users
 * the viewer blocked or was blocked by. A few more than the page shows are kept per board version
 * (every board write, here or relayed from another instance, moves it) for at most as long as the
 * signed-out page cache keeps a page; an offer that expires by the clock moves no version, so the
 * kept list is filtered by the clock on every read. A signed-in viewer's blocks (one small read)
 * take those users' offers out; when too few are left, the board itself answers.
 */
const KEPT = 20;
const TTL_MS = 5_000;
const kept = createCache<OfferView[]>({ name: "home-newest-offers", max: 50, ttlMs: TTL_MS });

export async function newestOffersFor(db: Db, viewerId: string | null, limit: number, now: Date = new Date()): Promise<OfferView[]> {
  const [offers, hidden] = await Promise.all([
    kept.remember(`${scopeOf(db)}:${changeVersion("board")}`, async () => (await listBoard(db, { limit: KEPT })).offers),
    viewerId ? blockedEitherWay(db, viewerId) : new Set<string>(),
  ]);
  const shown = offers.filter((offer) => Date.parse(offer.expiresAt) > now.getTime() && !hidden.has(offer.ownerId));
  if (shown.length >= limit || offers.length < KEPT) return shown.slice(0, limit);
  return (await listBoard(db, { viewerId, limit })).offers;
}
