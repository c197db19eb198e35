import { publicArticleRefs } from "#app/features/articles/article-refs.server.ts";
import { articlesSitemapSource } from "#app/features/articles/sitemap.server.ts";
import { registerRelatedLookup } from "#app/features/content/refs.server.ts";
import { deckContentRefs } from "#app/features/decks/deck-content.server.ts";
import { deckSitemapSource } from "#app/features/decks/deck-sitemap.server.ts";
import { chatMessageNoticeCtes, markRoomNotificationsRead, notifyChatMessage, notifyNewOffer, notifyOfferResponse,
  notifyFriendApplication, notifyTradeStep } from "#app/features/notifications/notifications.server.ts";
import { registerNotices } from "#app/lib/notices.server.ts";
import { registerReportableFriendPost, registerReportableOffer } from "#app/features/moderation/moderation.server.ts";
import { friendsSitemapSource, reportableFriendPost } from "#app/features/friends/friends.server.ts";
import { getOffer } from "#app/features/trades/offers.server.ts";
import { registerTradeEnding } from "#app/features/blocks/blocks.server.ts";
import { endTradesBetween } from "#app/features/chat/room-trade.server.ts";
import { registerSitemapSource } from "#app/features/seo/sitemap.server.ts";

/**
 * Where features that need each other's data meet, once, at start-up: instead of importing both
 * ways (a feature cycle), the feature that lists things offers a registration and the features
 * with things to list are registered here: the sitemap's sources and the content's related-block
 * lookups (articles and deck recipes), and the notices the chat and the offers give, which the
 * notifications feature writes (lib/notices.server.ts); moderation finds a reported offer through
 * the board's lookup; a block ends the trades between the two through the chat's rule.
 * server/app.ts calls this before it listens; the integration tests' setup and the benches call it
 * too.
 * Calling it again changes nothing.
 */
export function registerFeatureLinks(): void {
  registerSitemapSource(articlesSitemapSource);
  registerSitemapSource(deckSitemapSource);
  registerSitemapSource(friendsSitemapSource);
  registerRelatedLookup("articles", publicArticleRefs);
  registerRelatedLookup("decks", deckContentRefs);
  registerNotices({
    chatMessage: notifyChatMessage,
    chatMessageCtes: chatMessageNoticeCtes,
    tradeStep: notifyTradeStep,
    roomRead: markRoomNotificationsRead,
    newOffer: notifyNewOffer,
    offerResponse: notifyOfferResponse,
    friendApplication: notifyFriendApplication,
  });
  registerReportableOffer(getOffer);
  registerReportableFriendPost(reportableFriendPost);
  registerTradeEnding(endTradesBetween);
}
