import { createHmac, randomBytes, randomUUID } from "node:crypto";
import type { Db } from "#app/db/client.server.ts";
import { cards, chatRooms, profiles, rarities, sessions, tradeOfferCards, tradeOffers, users } from "#app/db/schema/index.ts";
import { RARITIES } from "#app/lib/rarity.ts";

const suffix = () => randomBytes(5).toString("hex");

/** A user with a profile (display name, optional friend ID), inserted directly. */
export async function createChatUser(db: Db, options: { name?: string; friendId?: string | null } = {}) {
  const id = `u_${suffix()}`;
  const name = options.name ?? `ユーザー${id.slice(2, 6)}`;
  await db.insert(users).values({ id, name, email: `${id}@example.com` });
  await db.insert(profiles).values({ userId: id, displayName: name, friendId: options.friendId === undefined ? `1234${Math.floor(Math.random() * 1e12).toString().padStart(12, "0")}` : options.friendId });
  return { id, name };
}

/**
 * An open offer by `ownerId` giving one card and wanting another of the same rarity. The game's
 * rarities are written too (as the catalogue seed writes them, never overwriting): the trade
 * rules read a rarity missing from that table as not tradeable, and the room's steps ask them.
 */
export async function createChatOffer(db: Db, ownerId: string) {
  await db.insert(rarities).values([...RARITIES]).onConflictDoNothing();
  const give = `T-${suffix()}`;
  const want = `T-${suffix()}`;
  await db.insert(cards).values([
    { id: give, name: "ピカチュウex", rarity: "◆◆◆◆" },
    { id: want, name: "リザードンex", rarity: "◆◆◆◆" },
  ]);
  const [offer] = await db
    .insert(tradeOffers)
    .values({ ownerId, comment: "よろしくお願いします", expiresAt: new Date(Date.now() + 72 * 3600_000) })
    .returning({ id: tradeOffers.id });
  await db.insert(tradeOfferCards).values([
    { offerId: offer.id, cardId: give, side: "give", count: 1 },
    { offerId: offer.id, cardId: want, side: "want", count: 1 },
  ]);
  return { id: offer.id, giveCardId: give, wantCardId: want };
}

/** Owner, partner, an offer by the owner and the room between them. */
export async function createChatRoom(db: Db, options: { ownerFriendId?: string | null; partnerFriendId?: string | null } = {}) {
  const owner = await createChatUser(db, { friendId: options.ownerFriendId });
  const partner = await createChatUser(db, { friendId: options.partnerFriendId });
  const offer = await createChatOffer(db, owner.id);
  const [room] = await db
    .insert(chatRooms)
    .values({ offerId: offer.id, ownerId: owner.id, partnerId: partner.id })
    .returning({ id: chatRooms.id });
  return { roomId: room.id, owner, partner, offer };
}

export const newClientId = () => randomUUID();

/**
 * A signed-in session for `userId`, as the browser would hold it: a session row and the signed
 * `torepoke.session_token` cookie (HMAC-SHA256 of the token with the auth secret, as Better Auth
 * signs it). Lets socket tests and benchmarks sign in many users without the sign-up rate limit.
 */
export async function createSessionCookie(db: Db, userId: string, secret: string): Promise<string> {
  const token = randomBytes(24).toString("base64url");
  await db.insert(sessions).values({
    id: randomBytes(12).toString("hex"),
    token,
    userId,
    expiresAt: new Date(Date.now() + 7 * 24 * 3600_000),
  });
  return sessionCookieFor(token, secret);
}

/** The cookie a browser holds for session `token` (Better Auth: `token.base64(HMAC-SHA256)`). */
export function sessionCookieFor(token: string, secret: string): string {
  const signature = createHmac("sha256", secret).update(token).digest("base64");
  return `torepoke.session_token=${encodeURIComponent(`${token}.${signature}`)}`;
}
