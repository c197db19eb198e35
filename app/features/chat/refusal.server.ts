import { AppError } from "#app/lib/errors.ts";
import { z } from "#app/lib/zod.ts";
import { ChatError } from "./errors";

/**
 * The refusal a socket handler answers for what it threw: our own refusals as they are, bad input
 * as `invalid` (the sender's), anything else as `unavailable` (ours: the database or Redis could
 * not be reached, nothing was stored, and the client sends the message again).
 */
export function chatRefusalOf(err: unknown): AppError {
  if (err instanceof AppError) return err;
  return new ChatError(err instanceof z.ZodError ? "invalid" : "unavailable");
}
