import { sql } from "drizzle-orm";
import type { Db } from "#app/db/client.server.ts";
import { createCache, scopeOf } from "#app/lib/cache.server.ts";
import { z } from "#app/lib/zod.ts";
import type { EventBuffer } from "./buffer.server";
import { agentOf, type Agent, channelOf, isRobot, languageOf, optedOut, pageKindOf, publicPathOf, referrerHostOf, screenBucketOf, utmOf } from "./classify.server";
import { dailySalt, tokyoDay, visitorHash } from "./salt.server";

/** What the page script sends (app/features/analytics/components/page-tracker.tsx). */
export const HitSchema = z.object({
  /** pv: a page view; en: time the page was visible, sent when it is hidden or left. */
  t: z.enum(["pv", "en"]),
  /** The page's path and query as the browser shows it. */
  u: z.string().min(1).max(2000),
  /** document.referrer on the first page of a load (page views only). */
  r: z.string().max(2000).optional(),
  /** screen.width */
  w: z.number().int().min(0).max(100_000).optional(),
  /** milliseconds the page was visible (engagement only) */
  e: z.number().int().min(0).max(24 * 3_600_000).optional(),
  /** navigator.webdriver */
  d: z.boolean().optional(),
});
export type Hit = z.infer<typeof HitSchema>;

/** The hit in a body, or null when it is not one (the endpoint answers 400 before anything else). */
export function parseHit(body: string): Hit | null {
  try {
    const parsed = HitSchema.safeParse(JSON.parse(body));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export type HitRequest = {
  hit: Hit;
  ip: string;
  userAgent: string | undefined;
  secChUa: string | undefined;
  acceptLanguage: string | undefined;
  gpc: string | undefined;
  dnt: string | undefined;
  /** The signed-in user of the request, resolved only when a session cookie came with it. */
  viewerId: () => Promise<string | null>;
};

export type CollectOutcome = "counted" | "invalid" | "opted_out" | "robot" | "ignored" | "dropped";

export type Collector = {
  collect(request: HitRequest): Promise<CollectOutcome>;
  /** Counts by outcome since start (the health panel, the metrics). */
  counts(): Record<CollectOutcome, number>;
};

/**
 * What a user agent (with its client hints) says, parsed once: a site's hits come from a few
 * hundred distinct user agents, and the robot list and the parser are the costliest steps of a hit.
 */
const agents = createCache<{ robot: boolean; agent: Agent }>({ name: "analytics-user-agents", max: 2_000, ttlMs: 3_600_000 });
/**
 * Real browsers' user agents with their hints stay well under this; longer keys are parsed every
 * time rather than kept, so the cache holds at most 2,000 short keys, not 2,000 headers of 16 KB.
 */
export const MAX_CACHED_AGENT_KEY = 512;

export function agentAndRobot(userAgent: string | undefined, secChUa: string | undefined): { robot: boolean; agent: Agent } {
  const key = `${secChUa ?? ""}\u0000${userAgent ?? ""}`;
  const cacheable = key.length <= MAX_CACHED_AGENT_KEY;
  let known = cacheable ? agents.get(key) : undefined;
  if (!known) {
    const robot = isRobot(userAgent, secChUa, false);
    known = { robot, agent: robot ? { browser: "unknown", os: "unknown", device: "other" } : agentOf(userAgent ?? "") };
    if (cacheable) agents.set(key, known);
  }
  return known;
}

/** A visitor's link to a signed-in user is written once per day and instance. */
const linked = createCache<true>({ name: "analytics-visitor-links", max: 10_000, ttlMs: 6 * 3_600_000 });

export function createCollector(db: Db, buffer: EventBuffer, site: { host: string }): Collector {
  const counts: Record<CollectOutcome, number> = { counted: 0, invalid: 0, opted_out: 0, robot: 0, ignored: 0, dropped: 0 };
  const classify = async (request: HitRequest): Promise<CollectOutcome> => {
    if (optedOut({ gpc: request.gpc, dnt: request.dnt })) return "opted_out";
    const hit = request.hit;
    if (hit.d === true) return "robot";
    const { robot, agent } = agentAndRobot(request.userAgent, request.secChUa);
    if (robot) return "robot";
    let url: URL;
    try {
      url = new URL(hit.u, "http://x");
    } catch {
      return "invalid";
    }
    const kind = pageKindOf(url.pathname);
    if (!kind) return "ignored";
    const now = new Date();
    const day = tokyoDay(now);
    const salt = await dailySalt(db, day);
    const userAgent = request.userAgent ?? "";
    const visitor = visitorHash(salt, request.ip, userAgent, site.host);
    const base = {
      ts: now,
      visitor,
      path: publicPathOf(url.pathname, kind),
      pageKind: kind,
      browser: agent.browser,
      os: agent.os,
      device: agent.device,
    };
    let accepted: boolean;
    if (hit.t === "en") {
      if (!hit.e) return "ignored";
      accepted = buffer.push({ ...base, kind: "engagement", engagedMs: hit.e });
    } else {
      const utm = utmOf(url.search);
      const referrerHost = referrerHostOf(hit.r, site.host);
      accepted = buffer.push({
        ...base,
        kind: "pageview",
        referrerHost,
        channel: channelOf(referrerHost, utm.medium),
        utmSource: utm.source,
        utmMedium: utm.medium,
        utmCampaign: utm.campaign,
        screen: screenBucketOf(hit.w),
        lang: languageOf(request.acceptLanguage),
      });
      if (accepted) await linkVisitor(db, day, visitor, request);
    }
    return accepted ? "counted" : "dropped";
  };
  return {
    async collect(request) {
      const outcome = await classify(request);
      counts[outcome]++;
      return outcome;
    },
    counts: () => ({ ...counts }),
  };
}

async function linkVisitor(db: Db, day: string, visitor: bigint, request: HitRequest): Promise<void> {
  const userId = await request.viewerId();
  if (!userId) return;
  const key = `${scopeOf(db)}:${day}:${visitor}:${userId}`;
  if (linked.get(key)) return;
  await db.execute(sql`insert into analytics_visitor_users (day, visitor, user_id) values (${day}, ${visitor}, ${userId}) on conflict do nothing`);
  linked.set(key, true);
}
