import { sql, type SQL } from "drizzle-orm";
import type { Db } from "#app/db/client.server.ts";
import { rowsOf } from "#app/db/sql.server.ts";

/**
 * The response record (docs/decisions/024): how often and how fast a player answers a new room on
 * one of their offers, over the last 30 days. No star ratings: only what the stored chat shows.
 *
 * - A room counts once the partner has written in it, from the partner's first message; the owner
 *   answers with their first message or trade step (chat_rooms.owner_replied_at, set once by
 *   appendMessage). A room nobody wrote in, with a partner the owner blocked, or with a partner
 *   suspended or deleted does not count: pressing 交渉する and saying nothing cannot rank anyone down.
 * - A room still unanswered but whose first message is younger than RESPONSE_PENDING_HOURS is not
 *   counted yet: a player asleep is not a player who never answers.
 * - 返信率 is answered / counted rooms; the typical reply time is the median time to answer.
 */
export const RESPONSE_WINDOW_DAYS = 30;
export const RESPONSE_PENDING_HOURS = 24;
/** Fewer counted rooms than this say too little to rank anyone down. */
export const RESPONSE_MIN_ROOMS = 3;
/** Below this rate (with enough rooms) a player's マッチ comes after the others' of the same fit. */
export const RESPONSE_SLOW_RATE = 0.5;

export type ResponseRecord = {
  /** New rooms counted in the window. */
  rooms: number;
  answered: number;
  /** 0–1, null without any counted room. */
  replyRate: number | null;
  /** Median seconds from the partner's first message to the owner's answer; null without any answer. */
  typicalReplySeconds: number | null;
};

const EMPTY: ResponseRecord = { rooms: 0, answered: 0, replyRate: null, typicalReplySeconds: null };

export type ResponseRecordRow = { owner_id: string; rooms: number | string; answered: number | string; typical: number | string | null };

/** The query of the owners' records: one row per owner with a counted room (readTogether can run it with others). */
export function responseRecordQuery(userIds: readonly string[], now: Date = new Date()): SQL {
  const since = new Date(now.getTime() - RESPONSE_WINDOW_DAYS * 86_400_000);
  const pendingSince = new Date(now.getTime() - RESPONSE_PENDING_HOURS * 3_600_000);
  return sql`select r.owner_id,
          count(*) filter (where r.owner_replied_at is not null or p.first_at <= ${pendingSince.toISOString()}::timestamptz) as rooms,
          count(r.owner_replied_at) as answered,
          percentile_cont(0.5) within group (order by greatest(0, extract(epoch from r.owner_replied_at - p.first_at)))
            filter (where r.owner_replied_at is not null) as typical
        from chat_rooms r
        join lateral (
          select min(m.created_at) as first_at from chat_messages m
          where m.room_id = r.id and m.sender_id = r.partner_id and m.kind = 'text'
        ) p on p.first_at is not null
        join profiles pp on pp.user_id = r.partner_id and pp.deleted_at is null and pp.suspended_at is null
        where r.owner_id in (${sql.join(userIds.map((id) => sql`${id}`), sql`, `)})
          and r.created_at > ${since.toISOString()}::timestamptz and r.created_at <= ${now.toISOString()}::timestamptz
          and not exists (select 1 from blocks b where b.blocker_id = r.owner_id and b.blocked_id = r.partner_id)
        group by r.owner_id`;
}

/** Each user's record from the rows of responseRecordQuery (users without a row get an empty one). */
export function responseRecordsOf(userIds: readonly string[], rows: readonly ResponseRecordRow[]): Map<string, ResponseRecord> {
  const records = new Map<string, ResponseRecord>(userIds.map((id) => [id, EMPTY]));
  for (const row of rows) {
    const rooms = Number(row.rooms);
    const answered = Number(row.answered);
    records.set(row.owner_id, {
      rooms,
      answered,
      replyRate: rooms ? answered / rooms : null,
      typicalReplySeconds: row.typical === null ? null : Math.max(0, Math.round(Number(row.typical))),
    });
  }
  return records;
}

/** Each user's record (users without rooms get an empty one). */
export async function responseRecords(db: Db, userIds: readonly string[], now: Date = new Date()): Promise<Map<string, ResponseRecord>> {
  const ids = [...new Set(userIds)];
  if (!ids.length) return new Map();
  return responseRecordsOf(ids, await rowsOf<ResponseRecordRow>(db, responseRecordQuery(ids, now)));
}

export async function responseRecord(db: Db, userId: string, now?: Date): Promise<ResponseRecord> {
  return (await responseRecords(db, [userId], now)).get(userId)!;
}

/** Enough rooms and under half of them answered: ranked after the others in マッチ. */
export function answersRarely(record: ResponseRecord | undefined): boolean {
  return record !== undefined && record.rooms >= RESPONSE_MIN_ROOMS && record.replyRate !== null && record.replyRate < RESPONSE_SLOW_RATE;
}
