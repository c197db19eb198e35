import { and, eq, inArray, sql, type SQL } from "drizzle-orm";
import type { Db } from "#app/db/client.server.ts";
import { chatMessages, friendPosts, profiles, reports, tradeOffers } from "#app/db/schema/index.ts";
import { rowsOf, type Tx } from "#app/db/sql.server.ts";
import { publishChange } from "#app/lib/change-bus.server.ts";
import { notifyReportOutcome } from "#app/features/notifications/notifications.server.ts";
import { databaseLimit } from "#app/lib/rate-limit.server.ts";
import { startUpSlot } from "#app/lib/start-up-slot.ts";
import { ModerationError } from "./errors";
import { normaliseBody, RoomIdSchema } from "#app/features/chat/chat.schema.ts";
import { requireRoomMember } from "#app/features/chat/chat.server.ts";
import type { ReportView } from "./types";

/**
 * Reports (通報) and their handling — one service for offers and chat messages, so both follow
 * the same rules: a reporter has at most one open report per target (a repeat answers the open
 * one and counts nothing), and at most REPORTS_PER_HOUR new reports an hour across both kinds.
 * Refusals are ModerationErrors (./errors.ts) worded like the screen they came from (offer or chat).
 */

export type { ReportView };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const iso = (value: Date | string) => (value instanceof Date ? value : new Date(value)).toISOString();

type Target = { type: "offer" | "message" | "friend_post"; id: string };

/** New reports a player may file in an hour, offers and messages together (counted in the database). */
export const REPORTS_PER_HOUR = 10;
const reportLimit = databaseLimit({ name: "report", max: REPORTS_PER_HOUR, window: "hour" });

/**
 * How an offer is found for a report: as the reporter may see it, with its owner, or null. The
 * trade board registers it at start-up (app/registrations.server.ts), so moderation does not
 * import the board that imports it.
 */
export type ReportableOffer = (db: Db, offerId: string, reporterId: string) => Promise<{ ownerId: string } | null>;
const findOffer = startUpSlot<ReportableOffer>("the offer lookup for reports");

export const registerReportableOffer = findOffer.fill;

/** How a フレンド募集 post is found for a report, as the reporter may see it (features/friends registers it). */
export type ReportableFriendPost = (db: Db, postId: string, reporterId: string) => Promise<{ ownerId: string } | null>;
const findFriendPost = startUpSlot<ReportableFriendPost>("the friend post lookup for reports");

export const registerReportableFriendPost = findFriendPost.fill;

/**
 * Files one report unless the reporter already has an open one on this target. `tooMany` is the
 * error of the calling screen when the hourly limit is passed.
 */
async function fileReport(db: Db, reporterId: string, target: Target, reason: string, tooMany: () => Error): Promise<{ reportId: string }> {
  return db.transaction(async (tx: Tx) => {
    const [existing] = await tx
      .select({ id: reports.id })
      .from(reports)
      .where(and(eq(reports.reporterId, reporterId), eq(reports.targetType, target.type), eq(reports.targetId, target.id), eq(reports.status, "open")));
    if (existing) return { reportId: existing.id };
    if (!(await reportLimit.take(reporterId, tx))) throw tooMany();
    const [row] = await tx.insert(reports).values({ reporterId, targetType: target.type, targetId: target.id, reason }).returning({ id: reports.id });
    return { reportId: row.id };
  });
}

/** 通報 of an offer someone else posted (reason already checked by the offer's schema). */
export async function reportOffer(db: Db, reporterId: string, offerId: string, reason: string): Promise<{ reportId: string }> {
  const offer = await findOffer.get()(db, offerId, reporterId);
  if (!offer) throw new ModerationError("offer", "not_found");
  if (offer.ownerId === reporterId) throw new ModerationError("offer", "own_offer");
  return fileReport(db, reporterId, { type: "offer", id: offerId }, reason, () => new ModerationError("offer", "rate_limited_report", { limit: REPORTS_PER_HOUR }));
}

/** 通報 of someone else's フレンド募集 post (spam, a fake friend ID, …): the offer's rules and wording. */
export async function reportFriendPost(db: Db, reporterId: string, postId: string, reason: string): Promise<{ reportId: string }> {
  const post = await findFriendPost.get()(db, postId, reporterId);
  if (!post) throw new ModerationError("offer", "not_found");
  if (post.ownerId === reporterId) throw new ModerationError("offer", "own_offer");
  return fileReport(db, reporterId, { type: "friend_post", id: postId }, reason, () => new ModerationError("offer", "rate_limited_report", { limit: REPORTS_PER_HOUR }));
}

/** 通報 of a message in a room the reporter is in. */
export async function reportMessage(db: Db, input: { reporterId: string; messageId: string; reason: string }): Promise<{ reportId: string }> {
  if (!RoomIdSchema.safeParse(input.messageId).success) throw new ModerationError("message", "not_found");
  const [message] = await db.select({ roomId: chatMessages.roomId }).from(chatMessages).where(eq(chatMessages.id, input.messageId));
  if (!message) throw new ModerationError("message", "not_found");
  await requireRoomMember(db, message.roomId, input.reporterId);
  const reason = normaliseBody(input.reason).slice(0, 500);
  if (!reason) throw new ModerationError("message", "empty");
  return fileReport(db, input.reporterId, { type: "message", id: input.messageId }, reason, () => new ModerationError("message", "report_rate_limited"));
}

export async function listReports(
  db: Db,
  options: { status?: "open" | "dismissed" | "actioned" | "all"; limit?: number; id?: string } = {},
): Promise<ReportView[]> {
  const status = options.status ?? "open";
  const filters: SQL[] = [];
  if (status !== "all") filters.push(sql`r.status = ${status}`);
  if (options.id) filters.push(sql`r.id = ${options.id}`);
  const rows = await rowsOf<{
    id: string;
    status: string;
    reason: string;
    created_at: Date | string;
    reporter_name: string | null;
    target_type: string;
    target_id: string;
    offer_id: string | null;
    offer_status: string | null;
    offer_comment: string | null;
    message_body: string | null;
    target_user_id: string | null;
    target_user_name: string | null;
    target_suspended: boolean | null;
  }>(
    db,
    sql`select r.id, r.status, r.reason, r.created_at, rp.display_name as reporter_name,
          r.target_type, r.target_id,
          o.id as offer_id, o.status as offer_status, o.comment as offer_comment,
          coalesce(m.body, fp.comment) as message_body,
          tp.user_id as target_user_id, tp.display_name as target_user_name,
          (tp.suspended_at is not null) as target_suspended
        from ${reports} r
        left join ${profiles} rp on rp.user_id = r.reporter_id
        left join ${tradeOffers} o on r.target_type = 'offer' and o.id::text = r.target_id
        left join ${chatMessages} m on r.target_type = 'message' and m.id::text = r.target_id
        left join ${friendPosts} fp on r.target_type = 'friend_post' and fp.id::text = r.target_id
        left join ${profiles} tp on tp.user_id = case r.target_type
            when 'offer' then o.owner_id when 'message' then m.sender_id when 'friend_post' then fp.owner_id else r.target_id end
        ${filters.length ? sql`where ${sql.join(filters, sql` and `)}` : sql``}
        order by r.created_at desc
        limit ${Math.min(options.limit ?? 100, 500)}`,
  );
  return rows.map((r) => ({
    id: r.id,
    status: r.status,
    reason: r.reason,
    createdAt: iso(r.created_at),
    reporterName: r.reporter_name ?? "",
    targetType: r.target_type,
    targetId: r.target_id,
    targetUserId: r.target_user_id,
    targetUserName: r.target_user_name,
    targetSuspended: Boolean(r.target_suspended),
    offer: r.offer_id ? { id: r.offer_id, status: r.offer_status ?? "", comment: r.offer_comment ?? "" } : null,
    messageBody: r.message_body,
  }));
}

export type ReportAction = "dismiss" | "closeOffer" | "suspendUser";

/** Resolves a report: dismiss it, close the reported offer, or suspend the user behind it. */
export async function resolveReport(db: Db, reportId: string, action: ReportAction): Promise<void> {
  if (!UUID.test(reportId)) throw new ModerationError("offer", "not_found");
  const [report] = await listReports(db, { status: "all", id: reportId });
  if (!report) throw new ModerationError("offer", "not_found");
  await db.transaction(async (tx) => {
    if (action === "closeOffer") {
      if (!report.offer) throw new ModerationError("offer", "not_found");
      await tx
        .update(tradeOffers)
        .set({ status: "closed", updatedAt: sql`now()` })
        .where(and(eq(tradeOffers.id, report.offer.id), inArray(tradeOffers.status, ["open", "negotiating", "expired"])));
    }
    if (action === "suspendUser") {
      if (!report.targetUserId) throw new ModerationError("offer", "not_found");
      await tx.execute(sql`update ${friendPosts} set status = 'closed', updated_at = now() where owner_id = ${report.targetUserId} and status = 'open'`);
      await tx.update(profiles).set({ suspendedAt: sql`coalesce(${profiles.suspendedAt}, now())` }).where(eq(profiles.userId, report.targetUserId));
      await tx
        .update(tradeOffers)
        .set({ status: "closed", updatedAt: sql`now()` })
        .where(and(eq(tradeOffers.ownerId, report.targetUserId), inArray(tradeOffers.status, ["open", "negotiating"])));
    }
    await tx
      .update(reports)
      .set({ status: action === "dismiss" ? "dismissed" : "actioned", resolvedAt: sql`now()` })
      .where(eq(reports.id, reportId));
    await notifyReportOutcome(tx, { reportId, outcome: action === "dismiss" ? "dismissed" : "actioned" });
  });
  publishChange("board");
}

/** Data of the admin 通報 tab: open reports, or every report with `filter: "all"`. */
export async function reportsTabData(
  db: Db,
  { filter, done }: { filter: "open" | "all"; done: boolean },
): Promise<{ reports: ReportView[]; filter: "open" | "all"; done: boolean }> {
  return { reports: await listReports(db, { status: filter }), filter, done };
}
