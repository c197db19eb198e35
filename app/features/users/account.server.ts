import { isPlaceholderAddress } from "./line-login.server";
import { hasPassword, isRecentSignIn, RECENT_SIGN_IN_MINUTES } from "./ways-in.server";
import { createEmailVerificationToken } from "better-auth/api";
import { and, asc, desc, eq, gt, inArray, ne, or, sql } from "drizzle-orm";
import type { Db } from "#app/db/client.server.ts";
import { analyticsEvents, analyticsVisitorUsers } from "#app/db/schema/analytics.ts";
import { articles } from "#app/db/schema/articles.ts";
import { chatMessages, chatReadCursors, chatRooms } from "#app/db/schema/chat.ts";
import { siteSettings, uploads } from "#app/db/schema/content.ts";
import { decks } from "#app/db/schema/decks.ts";
import { tradeRuleChanges } from "#app/db/schema/trade-rules.ts";
import { notifications, wantedCards } from "#app/db/schema/notifications.ts";
import { friendApplications, friendPosts } from "#app/db/schema/friends.ts";
import { collectionCards, collectionSettings, collectionSummaries } from "#app/db/schema/collection.ts";
import { notificationPreferences, pushSubscriptions } from "#app/db/schema/push.ts";
import { deliveryOutbox, signInFailures } from "#app/db/schema/delivery.ts";
import { blocks, reports, tradeOfferCards, tradeOffers, tradeRateLimits } from "#app/db/schema/trades.ts";
import { accounts, profiles, sessions, users, verifications } from "#app/db/schema/users.ts";
import { publishChange } from "#app/lib/change-bus.server.ts";
import { noteSessionsEnded } from "#app/lib/session-end.server.ts";
import type { Env } from "#app/lib/env.server.ts";
import { databaseLimit } from "#app/lib/rate-limit.server.ts";
import type { Locale } from "#app/lib/i18n.tsx";
import { queueAccountDeletedMail, queueVerificationMail } from "./account-mail.server";
import { VERIFY_TOKEN_SECONDS } from "./account-auth.server";
import { AccountError } from "./account-errors";
import { VERIFIED_CALLBACK } from "./account-links";
import { getAuth } from "./auth.server";
import { DELETED_USER_NAME } from "./display-name";
import { collectionRows } from "#app/features/collection/collection-csv.server.ts";
import { getCollectionSettings } from "#app/features/collection/collection.server.ts";
import { describeUserAgent } from "./user-agent";

/**
 * The account lifecycle service: what the account settings page, the reset page, the export and
 * the deletion call. Takes plain arguments (userId, parsed input), never a Request.
 */

export type AccountSummary = { email: string; emailVerified: boolean };

export async function getAccountSummary(db: Db, userId: string): Promise<AccountSummary | null> {
  const [row] = await db.select({ email: users.email, emailVerified: users.emailVerified }).from(users).where(eq(users.id, userId)).limit(1);
  return row ?? null;
}

/** Verification mails a user may ask for per hour (the project's per-user hourly limiter). */
export const VERIFY_RESEND_PER_HOUR = 5;
const verifyResendLimit = databaseLimit({ name: "verify_resend", max: VERIFY_RESEND_PER_HOUR, window: "hour" });

/** The link Better Auth's /verify-email accepts: its own signed token for this address. */
export async function verificationUrl(env: Env, email: string, callbackPath = VERIFIED_CALLBACK): Promise<string> {
  const token = await createEmailVerificationToken(env.authSecret, email, undefined, VERIFY_TOKEN_SECONDS);
  return `${env.siteUrl}/api/auth/verify-email?token=${token}&callbackURL=${encodeURIComponent(callbackPath)}`;
}

/** Queues a new verification mail; at most VERIFY_RESEND_PER_HOUR an hour. False when already verified. */
export async function resendVerification(db: Db, env: Env, userId: string, locale: Locale): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [user] = await tx.select({ id: users.id, email: users.email, name: users.name, emailVerified: users.emailVerified }).from(users).where(eq(users.id, userId)).limit(1);
    if (!user || user.emailVerified) return false;
    if (!(await verifyResendLimit.take(userId, tx))) throw new AccountError("resend_limited", { max: VERIFY_RESEND_PER_HOUR });
    await queueVerificationMail(tx, { locale, siteUrl: env.siteUrl }, user, await verificationUrl(env, user.email), { dedupe: false });
    return true;
  });
}

export type AccountSession = {
  id: string;
  current: boolean;
  browser: string | null;
  os: string | null;
  /** The address the session signed in from, masked (203.0.113.***): enough to tell two browsers apart, not to locate anyone. */
  address: string | null;
  createdAt: string;
  lastActiveAt: string;
};

/**
 * An IP address with its last part hidden, as account pages of large services show it: IPv4 keeps
 * three octets, IPv6 its first four groups (the network, not the device).
 */
export function maskAddress(ip: string | null | undefined): string | null {
  if (!ip) return null;
  const v4 = /^(?:::ffff:)?(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.\d{1,3}$/i.exec(ip.trim());
  if (v4) return `${v4[1]}.${v4[2]}.${v4[3]}.***`;
  if (!ip.includes(":")) return null;
  const [head] = ip.trim().split("::");
  const groups = head.split(":").filter(Boolean);
  return `${groups.slice(0, 4).join(":") || "0"}:****`;
}

/** The account's live sessions, the current one first, then by last activity. */
export async function listSessions(db: Db, userId: string, currentToken: string | null): Promise<AccountSession[]> {
  const rows = await db
    .select({ id: sessions.id, token: sessions.token, userAgent: sessions.userAgent, ipAddress: sessions.ipAddress, createdAt: sessions.createdAt, updatedAt: sessions.updatedAt })
    .from(sessions)
    .where(and(eq(sessions.userId, userId), gt(sessions.expiresAt, sql`now()`)))
    .orderBy(desc(sessions.updatedAt));
  return rows
    .map((r) => ({
      id: r.id,
      current: r.token === currentToken,
      ...describeUserAgent(r.userAgent),
      address: maskAddress(r.ipAddress),
      createdAt: r.createdAt.toISOString(),
      lastActiveAt: r.updatedAt.toISOString(),
    }))
    .sort((a, b) => Number(b.current) - Number(a.current));
}

/** Ends one session of the account (never another account's: 404 then). */
export async function revokeSession(db: Db, userId: string, sessionId: string): Promise<void> {
  const deleted = await db.delete(sessions).where(and(eq(sessions.id, sessionId), eq(sessions.userId, userId))).returning({ id: sessions.id });
  if (!deleted.length) throw new AccountError("session_not_found");
  noteSessionsEnded(deleted.map((d) => d.id));
}

/** Ends every session of the account but the current one. */
export async function revokeOtherSessions(db: Db, userId: string, currentToken: string): Promise<number> {
  const deleted = await db.delete(sessions).where(and(eq(sessions.userId, userId), ne(sessions.token, currentToken))).returning({ id: sessions.id });
  noteSessionsEnded(deleted.map((d) => d.id));
  return deleted.length;
}

/** Checks the account's password with Better Auth's own hasher (deletion asks for it again). */
export async function verifyAccountPassword(db: Db, env: Env, userId: string, password: string): Promise<boolean> {
  const [credential] = await db
    .select({ hash: accounts.password })
    .from(accounts)
    .where(and(eq(accounts.userId, userId), eq(accounts.providerId, "credential")))
    .limit(1);
  if (!credential?.hash) return false;
  const context = await getAuth(db, env).$context;
  return context.password.verify({ hash: credential.hash, password });
}

// ---------------------------------------------------------------------------------------------
// Export

/**
 * Everything the site holds about the user, as the JSON file of ダウンロード: account (with its
 * role), profile, sessions, offers, chat rooms with their messages and how far the user has read,
 * reports filed, blocks, the want list (ほしいカード), the collection (マイコレクション counts and privacy choices), the notifications, the mails queued for the
 * address, the sign-in attempts and per-hour action counts kept against the account, the
 * activity records (analytics events) linked to the account, and what an administrator wrote
 * (articles, decks, uploads, trade-rule changes, site settings), the devices subscribed to web
 * push (endpoint, browser, language, dates; not their encryption keys) and the notification
 * settings (choices per kind and channel, quiet hours, language, when the last digest went out).
 * Other users appear by display name only; a partner's friend ID only where the chat revealed it
 * to this user (both pressed 条件合意).
 */
export async function exportAccountData(db: Db, env: Env, userId: string) {
  const [account] = await db
    .select({ id: users.id, email: users.email, emailVerified: users.emailVerified, role: users.role, createdAt: users.createdAt, updatedAt: users.updatedAt })
    .from(users)
    .where(eq(users.id, userId));
  if (!account) throw new AccountError("session_not_found");
  const [profile] = await db
    .select({
      displayName: profiles.displayName,
      friendId: profiles.friendId,
      completedTrades: profiles.completedTrades,
      suspendedAt: profiles.suspendedAt,
      lastActiveAt: profiles.lastActiveAt,
      createdAt: profiles.createdAt,
      updatedAt: profiles.updatedAt,
    })
    .from(profiles)
    .where(eq(profiles.userId, userId));
  const sessionRows = await db
    .select({ createdAt: sessions.createdAt, lastActiveAt: sessions.updatedAt, expiresAt: sessions.expiresAt, ipAddress: sessions.ipAddress, userAgent: sessions.userAgent })
    .from(sessions)
    .where(eq(sessions.userId, userId));

  const offers = await db
    // giveAny / wantAny: a 何でも可 side names no card, so without them the offer would read as one-sided.
    .select({ id: tradeOffers.id, status: tradeOffers.status, giveAny: tradeOffers.giveAny, wantAny: tradeOffers.wantAny, comment: tradeOffers.comment, createdAt: tradeOffers.createdAt, updatedAt: tradeOffers.updatedAt, expiresAt: tradeOffers.expiresAt, completedAt: tradeOffers.completedAt })
    .from(tradeOffers)
    .where(eq(tradeOffers.ownerId, userId))
    .orderBy(asc(tradeOffers.createdAt));
  const offerCards = offers.length
    ? await db.select().from(tradeOfferCards).where(inArray(tradeOfferCards.offerId, offers.map((o) => o.id)))
    : [];

  const rooms = await db
    .select()
    .from(chatRooms)
    .where(or(eq(chatRooms.ownerId, userId), eq(chatRooms.partnerId, userId)))
    .orderBy(asc(chatRooms.createdAt));
  const partnerIds = [...new Set(rooms.map((r) => (r.ownerId === userId ? r.partnerId : r.ownerId)))];
  const partners = partnerIds.length
    ? await db.select({ id: profiles.userId, displayName: profiles.displayName, friendId: profiles.friendId }).from(profiles).where(inArray(profiles.userId, partnerIds))
    : [];
  const partnerById = new Map(partners.map((p) => [p.id, p]));
  const messages = rooms.length
    ? await db
        .select({ roomId: chatMessages.roomId, seq: chatMessages.seq, senderId: chatMessages.senderId, kind: chatMessages.kind, body: chatMessages.body, createdAt: chatMessages.createdAt })
        .from(chatMessages)
        .where(inArray(chatMessages.roomId, rooms.map((r) => r.id)))
        .orderBy(asc(chatMessages.roomId), asc(chatMessages.seq))
    : [];

  const readCursors = rooms.length
    ? await db.select().from(chatReadCursors).where(and(eq(chatReadCursors.userId, userId), inArray(chatReadCursors.roomId, rooms.map((r) => r.id))))
    : [];

  const filed = await db
    .select({ targetType: reports.targetType, targetId: reports.targetId, reason: reports.reason, status: reports.status, createdAt: reports.createdAt, resolvedAt: reports.resolvedAt })
    .from(reports)
    .where(eq(reports.reporterId, userId));
  const blocked = await db
    .select({ displayName: profiles.displayName, createdAt: blocks.createdAt })
    .from(blocks)
    .leftJoin(profiles, eq(profiles.userId, blocks.blockedId))
    .where(eq(blocks.blockerId, userId));
  const wanted = await db
    .select({ cardId: wantedCards.cardId, createdAt: wantedCards.createdAt })
    .from(wantedCards)
    .where(eq(wantedCards.userId, userId))
    .orderBy(asc(wantedCards.createdAt));
  const inbox = await db
    .select({
      kind: notifications.kind,
      actorDisplayName: profiles.displayName,
      roomId: notifications.roomId,
      offerId: notifications.offerId,
      cardId: notifications.cardId,
      detail: notifications.detail,
      count: notifications.count,
      createdAt: notifications.createdAt,
      updatedAt: notifications.updatedAt,
      readAt: notifications.readAt,
      mailedAt: notifications.mailedAt,
    })
    .from(notifications)
    .leftJoin(profiles, eq(profiles.userId, notifications.actorId))
    .where(eq(notifications.userId, userId))
    .orderBy(asc(notifications.createdAt));
  const pushDevices = await db
    .select({
      endpoint: pushSubscriptions.endpoint,
      userAgent: pushSubscriptions.userAgent,
      locale: pushSubscriptions.locale,
      createdAt: pushSubscriptions.createdAt,
      lastSuccessAt: pushSubscriptions.lastSuccessAt,
    })
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.userId, userId))
    .orderBy(asc(pushSubscriptions.createdAt));
  const [notificationSettings] = await db
    .select({
      channels: notificationPreferences.channels,
      quietStart: notificationPreferences.quietStart,
      quietEnd: notificationPreferences.quietEnd,
      quietMode: notificationPreferences.quietMode,
      locale: notificationPreferences.locale,
      digestSentAt: notificationPreferences.digestSentAt,
      updatedAt: notificationPreferences.updatedAt,
    })
    .from(notificationPreferences)
    .where(eq(notificationPreferences.userId, userId));
  const mails = await db
    .select({ subject: sql<string>`${deliveryOutbox.payload}->>'subject'`, status: deliveryOutbox.status, createdAt: deliveryOutbox.createdAt, sentAt: deliveryOutbox.finishedAt })
    .from(deliveryOutbox)
    .where(and(eq(deliveryOutbox.kind, "mail"), sql`lower(${deliveryOutbox.payload}->>'to') = ${account.email.toLowerCase()}`))
    .orderBy(asc(deliveryOutbox.id));
  // Failed sign-ins against the address (not where they came from: that may be someone else).
  const [signIns] = await db
    .select({ failures: signInFailures.failures, lastFailureAt: signInFailures.lastFailureAt, blockedUntil: signInFailures.blockedUntil })
    .from(signInFailures)
    .where(eq(signInFailures.emailKey, account.email.toLowerCase()));
  const actionCounts = await db
    .select({ action: tradeRateLimits.action, windowStart: tradeRateLimits.windowStart, count: tradeRateLimits.count })
    .from(tradeRateLimits)
    .where(eq(tradeRateLimits.userId, userId))
    .orderBy(asc(tradeRateLimits.windowStart), asc(tradeRateLimits.action));
  const activity = await db
    .select({
      at: analyticsEvents.ts,
      kind: analyticsEvents.kind,
      path: analyticsEvents.path,
      pageKind: analyticsEvents.pageKind,
      offerId: analyticsEvents.offerId,
      roomId: analyticsEvents.roomId,
      browser: analyticsEvents.browser,
      os: analyticsEvents.os,
      device: analyticsEvents.device,
      lang: analyticsEvents.lang,
    })
    .from(analyticsEvents)
    .where(eq(analyticsEvents.userId, userId))
    .orderBy(asc(analyticsEvents.ts));
  const visitorDays = await db
    .select({ day: analyticsVisitorUsers.day })
    .from(analyticsVisitorUsers)
    .where(eq(analyticsVisitorUsers.userId, userId))
    .orderBy(asc(analyticsVisitorUsers.day));
  // What an administrator wrote is published under the site's name; the file lists it as theirs.
  const articlesWritten = await db
    .select({ id: articles.id, slug: articles.slug, title: articles.title, isPublic: articles.isPublic, createdAt: articles.createdAt, publishedAt: articles.publishedAt })
    .from(articles)
    .where(eq(articles.authorId, userId))
    .orderBy(asc(articles.createdAt));
  const decksWritten = await db
    .select({ id: decks.id, slug: decks.slug, name: decks.name, isPublic: decks.isPublic, createdAt: decks.createdAt })
    .from(decks)
    .where(eq(decks.createdBy, userId))
    .orderBy(asc(decks.createdAt));
  const uploaded = await db
    .select({ key: uploads.key, folder: uploads.folder, contentType: uploads.contentType, bytes: uploads.bytes, createdAt: uploads.createdAt })
    .from(uploads)
    .where(eq(uploads.uploadedBy, userId))
    .orderBy(asc(uploads.createdAt));
  const ruleChanges = await db
    .select({ scope: tradeRuleChanges.scope, target: tradeRuleChanges.target, tradeable: tradeRuleChanges.tradeable, effectiveAt: tradeRuleChanges.effectiveAt, note: tradeRuleChanges.note, createdAt: tradeRuleChanges.createdAt })
    .from(tradeRuleChanges)
    .where(eq(tradeRuleChanges.createdBy, userId))
    .orderBy(asc(tradeRuleChanges.createdAt));
  const settingsSaved = await db.select({ updatedAt: siteSettings.updatedAt }).from(siteSettings).where(eq(siteSettings.updatedBy, userId));
  // マイコレクション: every owned print with its count, and the privacy choices.
  const collection = { settings: await getCollectionSettings(db, userId), cards: await collectionRows(db, userId) };
  // The ways in: a password (never its hash) and each linked provider with the ID it knows the
  // player by (LINE's user ID); no provider tokens.
  const ways = await db.select({ providerId: accounts.providerId, accountId: accounts.accountId, password: accounts.password, createdAt: accounts.createdAt }).from(accounts).where(eq(accounts.userId, userId));

  return {
    format: "torepoke-account-export/1",
    exportedAt: new Date().toISOString(),
    site: env.siteUrl,
    account: { ...account, emailIsPlaceholder: isPlaceholderAddress(account.email) },
    loginMethods: ways
      .filter((w) => w.providerId !== "credential" || !!w.password)
      .map((w) => (w.providerId === "credential" ? { provider: "email-password", since: w.createdAt } : { provider: w.providerId, accountId: w.accountId, since: w.createdAt })),
    profile: profile ?? null,
    sessions: sessionRows,
    tradeOffers: offers.map((o) => ({ ...o, cards: offerCards.filter((c) => c.offerId === o.id).map(({ cardId, side, count }) => ({ cardId, side, count })) })),
    chatRooms: rooms.map((room) => {
      const partnerId = room.ownerId === userId ? room.partnerId : room.ownerId;
      const partner = partnerById.get(partnerId);
      const agreed = room.ownerAgreedAt !== null && room.partnerAgreedAt !== null;
      return {
        id: room.id,
        offerId: room.offerId,
        role: room.ownerId === userId ? "owner" : "partner",
        partner: { displayName: partner?.displayName ?? null, ...(agreed ? { friendId: partner?.friendId ?? null } : {}) },
        // The card the partner named for the offer's 何でも可 side (null when none was named).
        chosenCardId: room.chosenCardId,
        createdAt: room.createdAt,
        agreedAt: room.ownerId === userId ? room.ownerAgreedAt : room.partnerAgreedAt,
        completedAt: room.completedAt,
        cancelledAt: room.cancelledAt,
        readUpToSeq: readCursors.find((c) => c.roomId === room.id)?.lastReadSeq ?? null,
        messages: messages
          .filter((m) => m.roomId === room.id)
          .map((m) => ({ seq: m.seq, from: m.senderId === userId ? "me" : m.senderId === null ? "system" : "partner", kind: m.kind, body: m.body, createdAt: m.createdAt })),
      };
    }),
    reportsFiled: filed,
    blocks: blocked,
    wantedCards: wanted,
    collection,
    notifications: inbox,
    notificationSettings: notificationSettings ?? null,
    pushSubscriptions: pushDevices,
    mails,
    signInFailures: signIns ?? null,
    actionCounts,
    activity: { events: activity, daysSeen: visitorDays.map((d) => d.day) },
    administration: { articles: articlesWritten, decks: decksWritten, uploads: uploaded, tradeRuleChanges: ruleChanges, siteSettingsSavedAt: settingsSaved[0]?.updatedAt ?? null },
  };
}

// ---------------------------------------------------------------------------------------------
// Deletion

export { DELETED_USER_NAME };
const deletedEmail = (userId: string) => `deleted-${userId}@deleted.invalid`;

/**
 * Deletes the account in one transaction (docs/decisions/016-account-deletion-keeps-a-nameless-row.md):
 * sessions, password and tokens go; open offers close; profile, e-mail and friend ID are erased.
 * The user row stays as 退会したユーザー, so a partner's chat keeps its messages and reports
 * keep their row for moderation without anyone's identity. A mail confirms it to the old address.
 */
export async function deleteAccount(db: Db, env: Env, userId: string, input: { password: string; locale: Locale } | { recentSignInSession: string; locale: Locale }): Promise<void> {
  if ("password" in input) {
    if (!(await verifyAccountPassword(db, env, userId, input.password))) throw new AccountError("password_wrong");
  } else {
    // An account without a password proves itself by a LINE sign-in of the last minutes instead.
    if (await hasPassword(db, userId)) throw new AccountError("password_wrong");
    if (!(await isRecentSignIn(db, input.recentSignInSession))) throw new AccountError("recent_sign_in_required", { minutes: RECENT_SIGN_IN_MINUTES });
  }
  const endedSessions = await db.transaction(async (tx) => {
    const [user] = await tx
      .select({ email: users.email, name: users.name })
      .from(users)
      .where(eq(users.id, userId))
      .for("update");
    if (!user) throw new AccountError("session_not_found");
    const now = new Date();
    // Open offers close; one this user was negotiating on goes back to the board for its owner.
    await tx
      .update(tradeOffers)
      .set({ status: "closed", updatedAt: now, matchKeys: sql`'{}'::text[]` })
      .where(and(eq(tradeOffers.ownerId, userId), inArray(tradeOffers.status, ["open", "negotiating"])));
    await tx
      .update(tradeOffers)
      .set({ status: "open", partnerId: null, updatedAt: now })
      .where(and(eq(tradeOffers.partnerId, userId), eq(tradeOffers.status, "negotiating")));
    await tx
      .update(tradeOffers)
      .set({ partnerId: null })
      .where(eq(tradeOffers.partnerId, userId));
    await tx
      .update(chatRooms)
      .set({ cancelledAt: now })
      .where(and(or(eq(chatRooms.ownerId, userId), eq(chatRooms.partnerId, userId)), sql`${chatRooms.completedAt} is null and ${chatRooms.cancelledAt} is null`));
    const ended = await tx.delete(sessions).where(eq(sessions.userId, userId)).returning({ id: sessions.id });
    await tx.delete(accounts).where(eq(accounts.userId, userId));
    await tx.delete(verifications).where(or(eq(verifications.value, userId), sql`${verifications.identifier} = ${user.email}`));
    await tx.delete(blocks).where(or(eq(blocks.blockerId, userId), eq(blocks.blockedId, userId)));
    await tx.delete(chatReadCursors).where(eq(chatReadCursors.userId, userId));
    await tx.delete(tradeRateLimits).where(eq(tradeRateLimits.userId, userId));
    // The user row stays, so ON DELETE CASCADE never runs: the want list, the inbox and every
    // notification naming this user as actor go here, and analytics forget who they were.
    await tx.delete(wantedCards).where(eq(wantedCards.userId, userId));
    // フレンド募集: their post closes and their 申請しました leave the posts they were on.
    await tx.update(friendPosts).set({ status: "closed", updatedAt: now }).where(and(eq(friendPosts.ownerId, userId), eq(friendPosts.status, "open")));
    await tx.delete(friendApplications).where(eq(friendApplications.applicantId, userId));
    await tx.delete(collectionCards).where(eq(collectionCards.userId, userId));
    await tx.delete(collectionSettings).where(eq(collectionSettings.userId, userId));
    // Last: the deletions above rewrite the summary's bits (docs/decisions/049); it goes with them.
    await tx.delete(collectionSummaries).where(eq(collectionSummaries.userId, userId));
    await tx.delete(notifications).where(or(eq(notifications.userId, userId), eq(notifications.actorId, userId)));
    // Their devices stop receiving pushes, and their notification settings go.
    await tx.delete(pushSubscriptions).where(eq(pushSubscriptions.userId, userId));
    await tx.delete(notificationPreferences).where(eq(notificationPreferences.userId, userId));
    await tx.update(analyticsEvents).set({ userId: null }).where(eq(analyticsEvents.userId, userId));
    await tx.delete(analyticsVisitorUsers).where(eq(analyticsVisitorUsers.userId, userId));
    await tx.delete(signInFailures).where(eq(signInFailures.emailKey, user.email.toLowerCase()));
    // Mails queued or kept for the address (their bodies name the user) go with it.
    await tx.delete(deliveryOutbox).where(and(eq(deliveryOutbox.kind, "mail"), sql`lower(${deliveryOutbox.payload}->>'to') = ${user.email.toLowerCase()}`));
    await tx
      .update(profiles)
      .set({ displayName: DELETED_USER_NAME, friendId: null, deletedAt: now, updatedAt: now })
      .where(eq(profiles.userId, userId));
    await tx
      .update(users)
      .set({ email: deletedEmail(userId), name: DELETED_USER_NAME, image: null, emailVerified: false, role: "user", updatedAt: now })
      .where(eq(users.id, userId));
    await queueAccountDeletedMail(tx, { locale: input.locale, siteUrl: env.siteUrl }, user);
    return ended.map((s) => s.id);
  });
  noteSessionsEnded(endedSessions);
  publishChange("board");
}
