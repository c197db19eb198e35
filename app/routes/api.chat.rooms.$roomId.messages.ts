import { z } from "#app/lib/zod.ts";
import { listMessages } from "#app/features/chat/chat.server.ts";
import { SEQ_MAX } from "#app/features/chat/chat.schema.ts";
import { requireApiViewer } from "#app/features/users/session.server.ts";
import type { Route } from "./+types/api.chat.rooms.$roomId.messages";
import { withJsonErrors } from "#app/lib/api.server.ts";
import { queryOf } from "#app/lib/input.server.ts";
import { parseInput } from "#app/lib/validation.ts";

const QuerySchema = z.object({
  afterSeq: z.coerce.number().int().nonnegative().max(SEQ_MAX).optional(),
  beforeSeq: z.coerce.number().int().min(1).max(SEQ_MAX).optional(),
  limit: z.coerce.number().int().min(1).max(200).optional(),
}).refine((query) => query.afterSeq === undefined || query.beforeSeq === undefined, { path: ["beforeSeq"] });

/**
 * GET /api/chat/rooms/{roomId}/messages?afterSeq=|beforeSeq=&limit= — history over HTTP: the
 * messages after a sequence number (sync) or the page before one (older history), oldest first.
 * Participants only; anyone else gets 404 as if the room did not exist.
 */
export const loader = withJsonErrors(async function loader({ request, params, context }: Route.LoaderArgs) {
  const viewer = await requireApiViewer(request, context);
  // An empty parameter is an absent one.
  const given = Object.fromEntries(Object.entries(queryOf(request)).filter(([, v]) => v !== ""));
  const query = parseInput(given, QuerySchema);
  const messages = await listMessages(context.db, params.roomId, viewer.id, query);
  return Response.json({ messages }, { headers: { "Cache-Control": "private, no-store" } });
});
