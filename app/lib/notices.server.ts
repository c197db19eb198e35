import type { SQL } from "drizzle-orm";
import type { Queryable } from "#app/db/sql.server.ts";
import { startUpSlot } from "./start-up-slot";

/**
 * What the chat and the trade board say happened that a player should hear about. The
 * notifications feature registers how each is written (app/registrations.server.ts), so neither
 * the chat nor the offers import it (it reads them, one way). Each runs inside the caller's
 * transaction, with the caller's `db`.
 */
export type Notices = {
  /** A new chat message for `recipientId`; answers what to run once the caller's transaction committed. */
  chatMessage(db: Queryable, m: { roomId: string; senderId: string; recipientId: string }): Promise<() => void>;
  /**
   * The same notice as common table expressions for the caller's own statement (the chat's
   * send writes message and notice in one statement): `ctes` goes into its WITH list after the
   * CTE named `after`, and writes once per row of it; the statement selects `columns` too, and
   * `written(row)` runs with its row after the statement.
   */
  chatMessageCtes(m: { roomId: string; senderId: string; recipientId: string }, after: string): { ctes: SQL; columns: SQL; written: (row: Record<string, unknown>) => void };
  /** A trade step pressed in a room, for the other participant. */
  tradeStep(db: Queryable, s: { roomId: string; actorId: string; recipientId: string; step: string }): Promise<void>;
  /** The reader caught up with a room. */
  roomRead(db: Queryable, roomId: string, userId: string): Promise<void>;
  /** A new offer was posted. */
  newOffer(db: Queryable, o: { offerId: string; ownerId: string; matchedOwners: readonly string[] }): Promise<void>;
  /** 交渉する: someone opened a chat room on the owner's offer. */
  offerResponse(db: Queryable, r: { roomId: string; offerId: string; ownerId: string; responderId: string }): Promise<void>;
  /** 申請しました on a friend board post (features/friends), with the applicant's friend ID then. */
  friendApplication(db: Queryable, a: { postId: string; ownerId: string; applicantId: string; applicantFriendId: string }): Promise<void>;
};

const slot = startUpSlot<Notices>("the notices");

export const registerNotices = slot.fill;

/** The registered notices. */
export const notices = slot.get;
