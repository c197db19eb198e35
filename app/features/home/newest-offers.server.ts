import type { Db } from "../../db/client.server";
import { createCache, scopeOf } from "../../lib/cache.server";
import { changeVersion } from "../../lib/change-bus.server";
import { listBoard } from "../trades/board.server";
import type { OfferView } from "../trades/types";

/**
 * The home page's newest offers are the board's first few, the same for everyone but the users
 * the viewer blocked or was blocked by. A few more than the page shows are kept per board version
 * (every board write, here or relayed from another instance, moves it) for at most as long as the
 * signed-out page cache keeps a page; an offer that expires by the clock moves no version, so the
 * kept list is filtered by the clock on every read. A viewer with blocks gets the kept list
 * without those users' offers, or the board's own answer when too few are left.
 */
const KEPT = 20;
const TTL_MS = 5_000;
const kept = createCache<OfferView[]>({ name: "home-newest-offers", max: 50, ttlMs: TTL_MS });

export async function newestOffersFor(db: Db, viewer: { id: string; blockedEitherWay: readonly string[] } | null, limit: number, now: Date = new Date()): Promise<OfferView[]> {
  const offers = await kept.remember(`${scopeOf(db)}:${changeVersion("board")}`, async () => (await listBoard(db, { limit: KEPT })).offers);
  const hidden = new Set(viewer?.blockedEitherWay ?? []);
  const shown = offers.filter((offer) => Date.parse(offer.expiresAt) > now.getTime() && !hidden.has(offer.ownerId));
  if (shown.length >= limit || offers.length < KEPT) return shown.slice(0, limit);
  return (await listBoard(db, { viewerId: viewer?.id, limit })).offers;
}
