import { rarityTradeCosts } from "../features/cards/cards.server";
import { useCallback } from "react";
import { data, useRevalidator } from "react-router";
import { listMessages, roomAnyChoices } from "../features/chat/chat.server";
import { getRoomState, getRoomView } from "../features/chat/room-views.server";
import { ChatRoom } from "../features/chat/components/chat-room";
import { chatMessages } from "../features/chat/messages";
import { requireViewer } from "../features/users/session.server";
import { shownName } from "../features/users/components/shown-name";
import { RouteError } from "../components/ui/route-error";
import { withPageErrors } from "../lib/api.server";
import { localeFromRequest, translate } from "../lib/i18n";
import { localeOfMatches } from "../components/layout/meta-locale";
import { seoMeta } from "../lib/seo";
import type { Route } from "./+types/chat";
import { MirrorOffers } from "../features/trades/components/mirror-offers";
import { mirrorOffersAfterTrade } from "../features/trades/mirror-offers.server";

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
