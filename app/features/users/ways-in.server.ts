import { and, eq, isNotNull } from "drizzle-orm";
import type { Db } from "#app/db/client.server.ts";
import { accounts, sessions } from "#app/db/schema/users.ts";

/** How long after a LINE sign-in a passwordless account may change what protects it (its address, deletion). */
export const RECENT_SIGN_IN_MINUTES = 10;

/** Whether the account has a password (a credential row with a hash). */
export async function hasPassword(db: Db, userId: string): Promise<boolean> {
  const rows = await db
    .select({ id: accounts.id })
    .from(accounts)
    .where(and(eq(accounts.userId, userId), eq(accounts.providerId, "credential"), isNotNull(accounts.password)))
    .limit(1);
  return rows.length > 0;
}

/** Whether this session began with a sign-in in the last RECENT_SIGN_IN_MINUTES (a passwordless account's proof). */
export async function isRecentSignIn(db: Db, sessionId: string): Promise<boolean> {
  const [row] = await db.select({ createdAt: sessions.createdAt }).from(sessions).where(eq(sessions.id, sessionId)).limit(1);
  return !!row && Date.now() - row.createdAt.getTime() < RECENT_SIGN_IN_MINUTES * 60_000;
}
