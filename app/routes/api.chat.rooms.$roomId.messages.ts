import { z } from "../lib/zod";
import { listMessages } from "../features/chat/chat.server";
import { SEQ_MAX } from "../features/chat/chat.schema";
import { requireApiViewer } from "../features/users/session.server";
import type { Route } from "./+types/api.chat.rooms.$roomId.messages";
import { withJsonErrors } from "../lib/api.server";

const QuerySchema = z.object({
  afterSeq: z.coerce.number().int().nonnegative().max(SEQ_MAX).optional(),
  beforeSeq: z.coerce.number().int().min(1).max(SEQ_MAX).optional(),
  limit: z.coerce.number().int().min(1).max(200).optional(),
});

/**
 * GET /api/chat/rooms/{roomId}/messages?afterSeq=|beforeSeq=&limit= — history over HTTP: the
 * messages after a sequence number (sync) or the page before one (older history), oldest first.
 * Participants only; anyone else gets 404 as if the room did not exist.
 */
export const loader = withJsonErrors(async function loader({ request, params, context }: Route.LoaderArgs) {
  const viewer = await requireApiViewer(request, context);
  const url = new URL(request.url);
  const query = QuerySchema.safeParse(Object.fromEntries([...url.searchParams].filter(([, v]) => v !== "")));
  if (!query.success || (query.data.afterSeq !== undefined && query.data.beforeSeq !== undefined)) {
    return Response.json({ error: "afterSeq or beforeSeq must be a whole number (not both); limit 1–200" }, { status: 400 });
  }
  const messages = await listMessages(context.db, params.roomId, viewer.id, query.data);
  return Response.json({ messages }, { headers: { "Cache-Control": "private, no-store" } });
});
