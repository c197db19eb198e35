import type { Db } from "../../db/client.server";
import type { Env } from "../../lib/env.server";
import { getAuth } from "./auth.server";

/**
 * The account lifecycle service: what the profile's account settings, the reset page, the export
 * and the deletion call. Takes plain arguments (userId, parsed input), never a Request.
 */

/** Whether a password-reset token (Better Auth's, from the mailed link) exists and has not expired. */
export async function isResetTokenValid(db: Db, env: Env, token: string): Promise<boolean> {
  const context = await getAuth(db, env).$context;
  const found = await context.internalAdapter.findVerificationValue(`reset-password:${token}`);
  return Boolean(found && new Date(found.expiresAt).getTime() > Date.now());
}
