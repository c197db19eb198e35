import type { ReactNode } from "react";
import { ListLink } from "#app/components/ui/list-link.tsx";
import { useLocale, useT } from "#app/lib/i18n.tsx";
import { CardThumb } from "#app/features/cards/components/card-image.tsx";
import { cardName } from "#app/lib/card-name.ts";
import { cardPrint } from "#app/lib/card-print.ts";
import { displayRarity } from "#app/lib/rarity.ts";
import { isDeletedUser, useShownName } from "#app/features/users/components/shown-name.ts";
import { tradesMessages } from "#app/features/trades/messages.ts";
import type { OfferStatus } from "#app/features/trades/rules.ts";
import { relativeTime } from "#app/lib/tokyo-time.ts";
import type { OfferChipView, OfferListItem } from "#app/features/trades/types.ts";
import { RuleClosedMark } from "./rule-closed-mark";

const STATUS_KEY = {
  open: "statusOpen",
  negotiating: "statusNegotiating",
  completed: "statusCompleted",
  closed: "statusClosed",
  expired: "statusExpired",
} as const;

const STATUS_STYLE: Record<OfferStatus, string> = {
  open: "bg-emerald-100 text-emerald-900",
  negotiating: "bg-amber-100 text-amber-900",
  completed: "bg-sky-100 text-sky-900",
  closed: "bg-slate-200 text-slate-800",
  expired: "bg-slate-200 text-slate-800",
};

export function StatusBadge({ status }: { status: OfferStatus }) {
  const t = useT(tradesMessages);
  return <span className={`rounded-full px-2 py-0.5 text-xs font-bold ${STATUS_STYLE[status]}`}>{t(STATUS_KEY[status])}</span>;
}

function CardChips({ cards, highlight, action }: { cards: OfferChipView[]; highlight?: Set<string>; action?: (card: OfferChipView) => ReactNode }) {
  const t = useT(tradesMessages);
  const locale = useLocale();
  return (
    <ul className="offer-chips">
      {cards.map((card) => {
        const print = cardPrint(card);
        return (
          <li key={card.cardId} className={highlight?.has(card.cardId) ? "offer-chip offer-chip-match" : "offer-chip"}>
            <CardThumb face={card} />
            <ListLink to={`/cards/${encodeURIComponent(card.cardId)}`}>{cardName(card, locale)}</ListLink>
            <span className="text-rarity">{displayRarity(card.rarity)}</span>
            {print ? <span className="offer-chip-print">{print}</span> : null}
            {card.count > 1 ? <span className="offer-chip-count"> {t("copies", { count: card.count })}</span> : null}
            {action?.(card)}
          </li>
        );
      })}
    </ul>
  );
}

/** 何でも可: the side names no card; the partner picks one of the same rarity from their own offers. */
function AnyCard() {
  const t = useT(tradesMessages);
  return (
    <p className="text-sm" data-testid="any-card">
      <span className="inline-block rounded-md border border-dashed border-slate-400 bg-white px-2 py-1 font-bold">{t("anyCard")}</span>
      <span className="ml-2 text-xs text-slate-600">{t("anyCardHint")}</span>
    </p>
  );
}

/**
 * One offer on the board, in マッチ, on a profile: owner, their completed trades and activity,
 * 譲 and 求 with rarities, comment (plain text) and age. Friend IDs are never shown here.
 */
export function OfferCard({
  offer,
  now,
  highlightGive,
  highlightWant,
  children,
  headingLevel = 3,
  giveAction,
}: {
  offer: OfferListItem;
  now: string;
  highlightGive?: Set<string>;
  highlightWant?: Set<string>;
  children?: ReactNode;
  headingLevel?: 2 | 3;
  /** Something for each card the offer gives, beside its chip (the reader's ほしい button). */
  giveAction?: (card: OfferChipView) => ReactNode;
}) {
  const t = useT(tradesMessages);
  const shownName = useShownName();
  const locale = useLocale();
  const ago = (iso: string) => relativeTime(iso, now, locale, t("justNow"));
  const Heading = headingLevel === 2 ? "h2" : "h3";
  return (
    <article className="offer-card" aria-labelledby={`offer-${offer.id}`}>
      <header>
        <Heading id={`offer-${offer.id}`}>
          <ListLink to={`/trades/${offer.id}`}>{t(isDeletedUser(offer.ownerName) ? "offerTitleDeleted" : "offerTitle", { name: shownName(offer.ownerName) })}</ListLink>
        </Heading>
        <StatusBadge status={offer.status} />
      </header>
      <p className="mt-1 text-xs text-slate-600">
        {/* A deleted account is active no more: no 最終アクティブ for it. */}
        {isDeletedUser(offer.ownerName)
          ? t("completedTrades", { count: offer.ownerCompletedTrades })
          : `${t("completedTrades", { count: offer.ownerCompletedTrades })}・${t("lastActive", { time: ago(offer.ownerLastActiveAt) })}`}
      </p>
      <dl>
        <dt>{t("give")}</dt>
        <dd>
          {offer.giveAny ? <AnyCard /> : <CardChips cards={offer.give} highlight={highlightGive} action={offer.ruleClosed ? undefined : giveAction} />}
        </dd>
        <dt className="offer-want">{t("want")}</dt>
        <dd>
          {offer.wantAny ? <AnyCard /> : <CardChips cards={offer.want} highlight={highlightWant} />}
        </dd>
      </dl>
      {offer.ruleClosed ? <RuleClosedMark /> : null}
      {offer.comment ? <p className="mt-3 whitespace-pre-line break-words text-sm text-slate-800">{offer.comment}</p> : null}
      <footer>
        <span>{offer.bumpedAt !== offer.createdAt ? t("bumpedAgo", { time: ago(offer.bumpedAt) }) : t("postedAgo", { time: ago(offer.createdAt) })}</span>
        {children}
      </footer>
    </article>
  );
}
