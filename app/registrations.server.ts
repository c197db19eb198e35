import { publicArticleRefs } from "./features/articles/article-refs.server";
import { articlesSitemapSource } from "./features/articles/sitemap.server";
import { registerRelatedLookup } from "./features/content/refs.server";
import { deckContentRefs } from "./features/decks/deck-content.server";
import { deckSitemapSource } from "./features/decks/deck-sitemap.server";
import { chatMessageNoticeCtes, markRoomNotificationsRead, notifyChatMessage, notifyNewOffer, notifyOfferResponse,
  notifyFriendApplication, notifyTradeStep } from "./features/notifications/notifications.server";
import { registerNotices } from "./lib/notices.server";
import { registerReportableFriendPost, registerReportableOffer } from "./features/moderation/moderation.server";
import { friendsSitemapSource, reportableFriendPost } from "./features/friends/friends.server";
import { getOffer } from "./features/trades/offers.server";
import { registerTradeEnding } from "./features/blocks/blocks.server";
import { endTradesBetween } from "./features/chat/room-trade.server";
import { registerSitemapSource } from "./features/seo/sitemap.server";

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
