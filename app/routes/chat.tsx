import { rarityTradeCosts } from "#app/features/cards/cards.server.ts";
import { useCallback } from "react";
import { data, useRevalidator } from "react-router";
import { listMessages, roomAnyChoices } from "#app/features/chat/chat.server.ts";
import { getRoomState, getRoomView } from "#app/features/chat/room-views.server.ts";
import { ChatRoom } from "#app/features/chat/components/chat-room.tsx";
import { chatMessages } from "#app/features/chat/messages.ts";
import { requireViewer } from "#app/features/users/session.server.ts";
import { shownName } from "#app/features/users/components/shown-name.ts";
import { RouteError } from "#app/components/ui/route-error.tsx";
import { withPageErrors } from "#app/lib/api.server.ts";
import { localeFromRequest, translate } from "#app/lib/i18n.tsx";
import { localeOfMatches } from "#app/components/layout/meta-locale.ts";
import { seoMeta } from "#app/lib/seo.ts";
import type { Route } from "./+types/chat";
import { MirrorOffers } from "#app/features/trades/components/mirror-offers.tsx";
import { mirrorOffersAfterTrade } from "#app/features/trades/mirror-offers.server.ts";

/** /chat/{roomId} (docs/product-rules.md §2, login required): the latest messages rendered here, then live. */
// Not a participant, or no such room: the same 404 (never reveal that a room exists).
export const loader = withPageErrors(async function loader({ request, params, context }: Route.LoaderArgs) {
  const viewer = await requireViewer(request, context);
  const locale = localeFromRequest(request);
  const [view, messages, state, tradeCosts] = await Promise.all([
    getRoomView(context.db, params.roomId, viewer.id),
    listMessages(context.db, params.roomId, viewer.id),
    getRoomState(context.db, params.roomId, viewer.id),
    rarityTradeCosts(context.db),
  ]);
  // A completed trade may have made the user's own other offers pointless: offer to close them.
  const [mirrorOffers, anyChoices] = await Promise.all([
    state.progress.completed ? mirrorOffersAfterTrade(context.db, view.id, viewer.id) : [],
    // The owner's real cards for a 何でも可 side, while the partner may still name one.
    roomAnyChoices(context.db, view),
  ]);
  return data(
    {
      title: translate(chatMessages, locale, view.partner.left ? "headingPartnerLeft" : "heading", { name: shownName(view.partner.displayName, locale) }),
      description: translate(chatMessages, locale, "description"),
      room: {
        roomId: view.id,
        role: view.role,
        me: { id: viewer.id, displayName: viewer.displayName, hasFriendId: Boolean(viewer.friendId) },
        partner: { id: view.partner.id, displayName: view.partner.displayName, completedTrades: view.partner.completedTrades, left: view.partner.left },
        offer: {
          id: view.offer.id,
          status: view.offer.status,
          comment: view.offer.comment,
          giveAny: view.offer.giveAny,
          wantAny: view.offer.wantAny,
          cards: view.offer.cards.map(({ packName: _packName, ...card }) => card),
        },
        tradeCosts,
        anyChoices,
        initialMessages: messages,
        initialState: state,
        lastSeq: view.lastSeq,
      },
      mirrorOffers,
    },
    { headers: { "Cache-Control": "private, no-store" } },
  );
});

export function headers({ loaderHeaders }: Route.HeadersArgs) {
  return loaderHeaders;
}

export const meta: Route.MetaFunction = (args) =>
  seoMeta(args, { title: args.loaderData?.title ?? translate(chatMessages, localeOfMatches(args.matches), "title"), description: args.loaderData?.description, noindex: true });

export default function Page({ loaderData }: Route.ComponentProps) {
  const { revalidate } = useRevalidator();
  const onCompleted = useCallback(() => void revalidate(), [revalidate]);
  // Keyed by room: moving to another room starts a fresh connection and state.
  return (
    <ChatRoom
      key={loaderData.room.roomId}
      {...loaderData.room}
      onCompleted={onCompleted}
      afterCompleted={<MirrorOffers offers={loaderData.mirrorOffers} />}
    />
  );
}

/** A room you are not in is "page not found"; a suspended account sees why. */
export function ErrorBoundary() {
  return <RouteError />;
}
