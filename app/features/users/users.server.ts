import { eq } from "drizzle-orm";
import { publishChange } from "#app/lib/change-bus.server.ts";
import type { Db } from "#app/db/client.server.ts";
import { profiles, users } from "#app/db/schema/users.ts";
import type { ProfileInput } from "./users.schema";

export type Profile = {
  userId: string;
  email: string;
  displayName: string;
  friendId: string | null;
  completedTrades: number;
  memberSince: Date;
  lastActiveAt: Date;
  emailVerified: boolean;
};

/** The profile page's one read of the user: profile row, address and whether it is verified. */
export async function getProfile(db: Db, userId: string): Promise<Profile | null> {
  const [row] = await db
    .select({
      userId: users.id,
      email: users.email,
      displayName: profiles.displayName,
      friendId: profiles.friendId,
      completedTrades: profiles.completedTrades,
      memberSince: users.createdAt,
      lastActiveAt: profiles.lastActiveAt,
      emailVerified: users.emailVerified,
    })
    .from(users)
    .innerJoin(profiles, eq(profiles.userId, users.id))
    .where(eq(users.id, userId))
    .limit(1);
  return row ?? null;
}

/**
 * Saves the validated profile form. users.name mirrors the display name so Better Auth's session
 * payload never shows a stale one; both rows change in one transaction.
 */
export async function updateProfile(db: Db, userId: string, input: ProfileInput): Promise<void> {
  await db.transaction(async (tx) => {
    const now = new Date();
    const updated = await tx
      .update(profiles)
      .set({ displayName: input.displayName, friendId: input.friendId, updatedAt: now })
      .where(eq(profiles.userId, userId))
      .returning({ userId: profiles.userId });
    if (updated.length === 0) throw new Error(`no profile for user ${userId}`);
    await tx.update(users).set({ name: input.displayName, updatedAt: now }).where(eq(users.id, userId));
  });
  // The display name shows on the owner's offers.
  publishChange("board");
}

/** Grants or revokes the admin role by e-mail (scripts/admin.ts); false when no such user. */
export async function setAdminRole(db: Db, email: string, admin: boolean): Promise<boolean> {
  const updated = await db
    .update(users)
    .set({ role: admin ? "admin" : "user", updatedAt: new Date() })
    .where(eq(users.email, email.trim().toLowerCase()))
    .returning({ id: users.id });
  return updated.length > 0;
}

export async function listRoleAdmins(db: Db): Promise<Array<{ id: string; email: string }>> {
  return db.select({ id: users.id, email: users.email }).from(users).where(eq(users.role, "admin"));
}
