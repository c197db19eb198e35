import { z } from "../lib/zod";
import { safeString } from "../lib/text";
import { tradeText, zodMessage } from "../features/trades/http.server";
import { OfferInputSchema, ReportInputSchema } from "../features/trades/trades.schema";
import {
  blockUser,
  bumpOffer,
  closeOffer,
  deleteOffer,
  getOffer,
  markOfferCompleted,
  openChatRoomForOffer,
  reportOffer,
  updateOffer,
} from "../features/trades/trades.server";
import { TradeError } from "../features/trades/errors";
import { getViewer, requireApiViewer } from "../features/users/session.server";
import { localeFromRequest } from "../lib/i18n";
import type { Route } from "./+types/api.trades.$id";
import { withJsonErrors } from "../lib/api.server";

/** GET /api/trades/:id — one offer (404 when missing or hidden by a block). */
export const loader = withJsonErrors(async function loader({ request, params, context }: Route.LoaderArgs) {
  const viewer = await getViewer(request, context);
  const offer = await getOffer(context.db, params.id, viewer?.id);
  if (!offer) throw new TradeError("not_found");
  return Response.json({ offer });
});

const ActionSchema = z.object({
  action: z.enum(["bump", "close", "complete", "respond", "report", "block"]),
  reason: safeString().optional(),
});

/**
 * PATCH /api/trades/:id (offer body) edits; DELETE deletes; POST {action} bumps, closes,
 * completes, responds (→ {roomId}), reports ({reason}) or blocks the owner. Owner-only actions
 * answer 403 for anyone else and change nothing.
 */
export const action = withJsonErrors(async function action({ request, params, context }: Route.ActionArgs) {
  const viewer = await requireApiViewer(request, context);
  const locale = localeFromRequest(request);
  const id = params.id;
  const body = request.method === "DELETE" ? null : await request.json().catch(() => null);
  if (request.method === "DELETE") {
    await deleteOffer(context.db, viewer.id, id);
    return new Response(null, { status: 204 });
  }
  if (request.method === "PATCH") {
    const parsed = OfferInputSchema.safeParse(body);
    if (!parsed.success) return Response.json({ error: zodMessage(parsed.error, locale) }, { status: 400 });
    await updateOffer(context.db, viewer.id, id, parsed.data);
    return Response.json({ ok: true });
  }
  if (request.method !== "POST") return Response.json({ error: "Method Not Allowed" }, { status: 405 });
  const parsed = ActionSchema.safeParse(body);
  if (!parsed.success) return Response.json({ error: tradeText(locale, "badRequest") }, { status: 400 });
  switch (parsed.data.action) {
    case "bump":
      await bumpOffer(context.db, viewer.id, id);
      break;
    case "close":
      await closeOffer(context.db, viewer.id, id);
      break;
    case "complete":
      await markOfferCompleted(context.db, viewer.id, id);
      break;
    case "respond":
      return Response.json(await openChatRoomForOffer(context.db, { offerId: id, userId: viewer.id }));
    case "report": {
      const reason = ReportInputSchema.safeParse({ reason: parsed.data.reason ?? "" });
      if (!reason.success) return Response.json({ error: tradeText(locale, reason.error.issues[0]?.message ?? "badRequest") }, { status: 400 });
      return Response.json(await reportOffer(context.db, viewer.id, id, reason.data.reason), { status: 201 });
    }
    case "block": {
      const offer = await getOffer(context.db, id, viewer.id);
      if (!offer) throw new TradeError("not_found");
      await blockUser(context.db, viewer.id, offer.ownerId);
      break;
    }
  }
  return Response.json({ ok: true });
});
