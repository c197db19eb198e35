import { Fragment, useEffect, useRef, useState, type FormEvent, type KeyboardEvent, type ReactNode } from "react";
import { Link } from "react-router";
import { useLocale, useT } from "#app/lib/i18n.tsx";
import { cardName } from "#app/lib/card-name.ts";
import { tokyoShortDateTime } from "#app/lib/tokyo-time.ts";
import { useShownName } from "#app/features/users/components/shown-name.ts";
import { MESSAGE_MAX_LENGTH, normaliseBody } from "#app/features/chat/chat.schema.ts";
import { chatErrorKey } from "#app/features/chat/errors.ts";
import { chatMessages, OFFER_STATUS_KEYS, type ChatMessageKey } from "#app/features/chat/messages.ts";
import type { ChatMessage, RoomState, RuleClosedCard } from "#app/features/chat/protocol.ts";
import { useChatRoom } from "#app/features/chat/use-chat-room.ts";
import { MessageList } from "./message-list";
import { AnyCardChooser } from "./any-card-chooser";
import { RoomOfferCards, roomOfferLine, type RoomOfferCard } from "./room-offer-cards";
import { FriendId, StepButton } from "./room-parts";
import type { CardListItem } from "#app/features/cards/types.ts";

export type ChatRoomProps = {
  roomId: string;
  me: { id: string; displayName: string; hasFriendId: boolean };
  /** `left`: the partner deleted their account; the room is read-only for good. */
  partner: { id: string; displayName: string; completedTrades: number; left?: boolean };
  role: "owner" | "partner";
  offer: {
    id: string;
    status: string;
    comment: string;
    giveAny: boolean;
    wantAny: boolean;
    cards: RoomOfferCard[];
  };
  /** Shinedust per rarity each player pays for the trade (shown with the offer's cards). */
  tradeCosts?: Record<string, number>;
  /** The owner's real cards for the 何でも可 side (docs/decisions/045), for the partner; null: any card of the rarity. */
  anyChoices?: CardListItem[] | null;
  initialMessages: ChatMessage[];
  initialState: RoomState;
  lastSeq: number;
  /** Called once when the trade is completed while the page is open (the page reloads its data). */
  onCompleted?: () => void;
  /** Shown under the steps once the trade is completed (the route's offer to close mirror offers). */
  afterCompleted?: ReactNode;
};


/** A 16-digit friend ID as 1234-5678-9012-3456 (how the game prints it). */
const groupFriendId = (id: string) => id.replace(/(\d{4})(?=\d)/g, "$1-");

export function ChatRoom(props: ChatRoomProps) {
  const t = useT(chatMessages);
  const locale = useLocale();
  const room = useChatRoom({
    roomId: props.roomId,
    userId: props.me.id,
    initialMessages: props.initialMessages,
    initialState: props.initialState,
    lastSeq: props.lastSeq,
  });
  const { state } = room;
  const partnerName = useShownName()(props.partner.displayName);
  const nameOf = (id: string | null) => (id === props.me.id ? t("you") : partnerName);
  const blockedByMe = state.blockerIds.includes(props.me.id);
  const blockedMe = state.blockerIds.includes(props.partner.id);
  const partnerLeft = props.partner.left === true;
  const p = state.progress;
  const iAgreed = props.role === "owner" ? p.ownerAgreed : p.partnerAgreed;
  const iCompleted = props.role === "owner" ? p.ownerCompleted : p.partnerCompleted;
  // A trade-rule change closed a card of the offer: no step is offered until it reopens.
  const ruleClosed = !p.completed && !p.cancelled && state.ruleClosedCards.length > 0;
  const stepsClosed = p.completed || p.cancelled || blockedByMe || blockedMe || ruleClosed || partnerLeft;
  const partnerFriendId = state.friendIds?.[props.partner.id] ?? null;
  // 何でも可: the partner names the card of that side; both agree once it is named.
  const anySide = props.offer.giveAny ? "give" : props.offer.wantAny ? "want" : null;
  const chosen = state.chosenCard;
  const roomCards = chosen ? [...props.offer.cards, chosen] : props.offer.cards;
  const needsCard = anySide !== null && chosen === null;
  const namedRarities = [...new Set(props.offer.cards.filter((c) => c.side !== anySide).map((c) => c.rarity))];
  const canChoose = anySide !== null && props.role === "partner" && !p.agreed && !stepsClosed;
  const anyChooser = canChoose ? (
    <AnyCardChooser rarities={namedRarities} chosen={chosen !== null} onChoose={room.chooseCard} choices={props.anyChoices} />
  ) : needsCard && props.role === "owner" && !stepsClosed ? (
    <p className="mt-1 text-xs text-slate-600" data-testid="any-card-wait">
      {t("anyChooseHintOwner", { name: partnerName })}
    </p>
  ) : null;
  const { onCompleted } = props;
  const completedAtLoad = useRef(props.initialState.progress.completed);
  useEffect(() => {
    if (p.completed && !completedAtLoad.current) {
      completedAtLoad.current = true;
      onCompleted?.();
    }
  }, [p.completed, onCompleted]);

  // The newest messages and the input are on the first screen at every width. On a phone the trade
  // panel folds into a two-line summary that opens on tap; from md up it is a column beside the chat.
  const [panelOpen, setPanelOpen] = useState(false);
  const nextStep: ChatMessageKey = p.completed
    ? "panelDone"
    : p.cancelled
      ? "panelCancelled"
      : ruleClosed
        ? "panelRuleClosed"
        : !p.agreed
        ? needsCard
          ? props.role === "partner"
            ? "anyChoose"
            : "stepWaitingPartner"
          : iAgreed
          ? "stepWaitingPartner"
          : "stepAgree"
        : !p.friendRequested
          ? "stepFriendRequested"
          : !p.gameTradeRequested
            ? "stepGameTradeRequested"
            : iCompleted
              ? "stepWaitingPartner"
              : "stepComplete";

  const noticeText = (() => {
    if (!room.notice) return null;
    if (room.notice.message) return room.notice.message;
    return t(chatErrorKey(room.notice.code), { max: MESSAGE_MAX_LENGTH });
  })();

  return (
    <div className="flex flex-col gap-3 md:grid md:grid-cols-[minmax(0,1fr)_17rem] md:items-start md:gap-x-5 lg:grid-cols-[minmax(0,1fr)_20rem]">
      <header className="flex flex-wrap items-center justify-between gap-2 md:col-span-2">
        <div>
          <h1 className="text-lg font-bold md:text-xl">{t(partnerLeft ? "headingPartnerLeft" : "heading", { name: partnerName })}</h1>
          {partnerLeft ? null : <p className="text-sm text-slate-600">{t("completedTrades", { count: props.partner.completedTrades })}</p>}
        </div>
        {partnerLeft ? null : (
          <button
            type="button"
            className="rounded border border-slate-300 bg-white px-3 py-1 text-sm hover:bg-slate-100"
            onClick={() => {
              if (blockedByMe) void room.setBlocked(false);
              else if (window.confirm(t("blockConfirm", { name: partnerName }))) void room.setBlocked(true);
            }}
          >
            {blockedByMe ? t("unblock") : t("block")}
          </button>
        )}
      </header>

      <button
        type="button"
        aria-expanded={panelOpen}
        aria-controls="chat-trade-panel"
        onClick={() => setPanelOpen((open) => !open)}
        className="flex w-full items-center gap-2 rounded-lg border border-slate-200 bg-white px-3 py-2 text-left text-sm md:hidden"
        data-testid="trade-panel-toggle"
      >
        <span className="sr-only">{t(panelOpen ? "panelClose" : "panelOpen")}</span>
        <span className="shrink-0 rounded-full bg-brand-100 px-2 py-0.5 text-xs font-bold text-brand-800">{t(OFFER_STATUS_KEYS[state.offerStatus] ?? "statusClosed")}</span>
        {/* Two lines, so a phone shows both sides; the text still reads "渡す: A ⇄ もらう: B". */}
        <span className="min-w-0 flex-1" data-testid="trade-panel-summary">
          {roomOfferLine(roomCards, props.role, props.offer, (key) => t(key)).map((part, i) => (
            <Fragment key={i}>
              {i > 0 ? " " : null}
              <span className="block truncate">{i > 0 ? `⇄ ${part}` : part}</span>
            </Fragment>
          ))}
        </span>
        <span className="shrink-0 text-xs font-bold text-brand-800">{partnerLeft ? t("panelPartnerLeft") : t("panelNext", { step: t(nextStep) })}</span>
        <span aria-hidden="true" className="shrink-0 text-slate-600">
          {panelOpen ? "▲" : "▼"}
        </span>
      </button>

      <div id="chat-trade-panel" className={`${panelOpen ? "flex flex-col gap-3" : "hidden md:flex md:flex-col"} md:col-start-2 md:row-start-2 md:gap-3`}>
        <section aria-labelledby="chat-offer" className="rounded-lg border border-slate-200 bg-white p-3">
          <div className="flex items-center justify-between gap-2">
            <h2 id="chat-offer" className="font-bold">
              <Link to={`/trades/${props.offer.id}`} className="hover:underline">
                {t("offerHeading")}
              </Link>
            </h2>
            <span className="rounded-full bg-brand-100 px-2 py-0.5 text-xs font-bold text-brand-800" data-testid="offer-status">
              {t(OFFER_STATUS_KEYS[state.offerStatus] ?? "statusClosed")}
            </span>
          </div>
          <RoomOfferCards
            cards={roomCards}
            role={props.role}
            any={props.offer}
            tradeCosts={props.tradeCosts}
            chosenLabel={props.role === "partner" ? t("anyChosenByYou") : t("anyChosenByPartner", { name: partnerName })}
            chooser={anyChooser}
          />
          {props.offer.comment ? <p className="mt-2 whitespace-pre-wrap text-sm text-slate-700">{props.offer.comment}</p> : null}
        </section>

        <section aria-labelledby="chat-steps" className="rounded-lg border border-slate-200 bg-white p-3">
          <h2 id="chat-steps" className="font-bold">
            {t("stepsHeading")}
          </h2>
          {p.completed ? (
            <p className="mt-2 font-bold text-green-700" role="status">
              {t("tradeCompleted")}
            </p>
          ) : partnerLeft ? (
            <p className="mt-2 text-sm text-slate-700" role="status">
              {t("readOnlyPartnerLeft")}
            </p>
          ) : p.cancelled ? (
            <div className="mt-2 space-y-1" role="status">
              <p className="text-slate-700">{t("tradeCancelled")}</p>
              {/* How to start again: the partner reopens this room with 交渉する while the offer is open. */}
              {state.offerStatus !== "open" ? (
                <p className="text-sm text-slate-700">
                  {t("restartClosed")}{" "}
                  <Link to="/trades" className="text-brand-700 underline">
                    {t("restartToBoard")}
                  </Link>
                </p>
              ) : props.role === "partner" ? (
                <p className="text-sm text-slate-700">
                  {t("restartPartner")}{" "}
                  <Link to={`/trades/${props.offer.id}`} className="text-brand-700 underline">
                    {t("restartToOffer")}
                  </Link>
                </p>
              ) : (
                <p className="text-sm text-slate-700">{t("restartOwner", { name: partnerName })}</p>
              )}
            </div>
          ) : ruleClosed ? (
            <RuleClosedNotice cards={state.ruleClosedCards} offerCards={roomCards} />
          ) : (
            <p className="mt-1 text-sm text-slate-600">{p.agreed ? t("stepCompleteHint") : needsCard ? t(props.role === "partner" ? "anyChoosePrompt" : "anyChooseWait") : t("stepAgreeHint")}</p>
          )}
          <ScamWarning step={stepsClosed ? null : !p.agreed ? "agree" : !p.gameTradeRequested ? "gameTrade" : null} />
          <ol className="mt-2 flex flex-wrap gap-2">
            <StepButton label={t("stepAgree")} done={p.agreed} mine={iAgreed} waiting={iAgreed && !p.agreed ? t("stepWaitingPartner") : null} disabled={stepsClosed || iAgreed || needsCard} doneLabel={t("stepDone")} onClick={() => room.step("agree")} />
            <StepButton label={t("stepFriendRequested")} done={p.friendRequested} disabled={stepsClosed || !p.agreed || p.friendRequested} doneLabel={t("stepDone")} onClick={() => room.step("friend_requested")} />
            <StepButton label={t("stepGameTradeRequested")} done={p.gameTradeRequested} disabled={stepsClosed || !p.friendRequested || p.gameTradeRequested} doneLabel={t("stepDone")} onClick={() => room.step("game_trade_requested")} />
            <StepButton label={t("stepComplete")} done={p.completed} mine={iCompleted} waiting={iCompleted && !p.completed ? t("stepWaitingPartner") : null} disabled={stepsClosed || !p.gameTradeRequested || iCompleted} doneLabel={t("stepDone")} onClick={() => room.step("complete")} />
          </ol>
          {!p.completed && !p.cancelled && !partnerLeft ? (
            <button
              type="button"
              className="mt-2 text-sm text-red-700 underline"
              onClick={() => {
                if (window.confirm(t("stepCancelConfirm"))) void room.step("cancel");
              }}
            >
              {t("stepCancel")}
            </button>
          ) : null}
        </section>

        {p.completed ? props.afterCompleted : null}

        <section aria-labelledby="chat-friend-id" className="rounded-lg border border-slate-200 bg-white p-3">
          <h2 id="chat-friend-id" className="font-bold">
            {t("friendIdHeading")}
          </h2>
          {!props.me.hasFriendId ? (
            <p className="mt-1 text-sm text-amber-800">
              <Link to="/profile" className="underline">
                {t("myFriendIdMissing")}
              </Link>
            </p>
          ) : null}
          {p.agreed && !p.cancelled ? (
            partnerFriendId ? (
              <FriendId label={t("friendIdOf", { name: partnerName })} value={groupFriendId(partnerFriendId)} />
            ) : (
              <p className="mt-1 text-sm text-slate-600">{t("friendIdMissing", { name: partnerName })}</p>
            )
          ) : (
            <p className="mt-1 text-sm text-slate-600">{t("friendIdHidden")}</p>
          )}
        </section>
      </div>

      <div className="flex flex-col gap-3 md:col-start-1 md:row-start-2">
        <MessageList
          messages={room.messages}
          meId={props.me.id}
          nameOf={nameOf}
          locale={locale}
          hasOlder={room.hasOlder}
          loadingOlder={room.loadingOlder}
          loadOlder={room.loadOlder}
          outbox={room.outbox}
          report={room.report}
          connection={room.connection}
        />

        {noticeText ? (
          <p role="alert" className="rounded border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900">
            {noticeText}
          </p>
        ) : null}
        {room.connection === "offline" ? (
          <p role="status" className="text-sm text-slate-600">
            {t("offline")}
          </p>
        ) : null}

        {partnerLeft ? (
          <p className="rounded bg-slate-100 px-3 py-2 text-sm text-slate-700" data-testid="room-partner-left">
            {t("readOnlyPartnerLeft")}
          </p>
        ) : blockedMe ? (
          <p className="rounded bg-slate-100 px-3 py-2 text-sm text-slate-700">{t("readOnlyBlockedMe")}</p>
        ) : blockedByMe ? (
          <p className="rounded bg-slate-100 px-3 py-2 text-sm text-slate-700">{t("readOnlyBlockedByMe")}</p>
        ) : (
          <Composer
            onSend={(body) => {
              room.setNotice(null);
              room.send(body);
            }}
          />
        )}
      </div>
    </div>
  );
}


/**
 * Why the steps stopped: the cards a rule change closed, in the reader's language, and when
 * they open again if every one of them has a date on the books (the steps need them all).
 */
function RuleClosedNotice({ cards, offerCards }: { cards: RuleClosedCard[]; offerCards: RoomOfferCard[] }) {
  const t = useT(chatMessages);
  const locale = useLocale();
  const names = cards.map((card) => cardName(offerCards.find((c) => c.cardId === card.cardId) ?? card, locale)).join(locale === "ja" ? "・" : ", ");
  const reopens = cards.every((card) => card.until !== null) ? cards.map((card) => card.until as string).sort().at(-1) : undefined;
  return (
    <div className="mt-2 space-y-1 rounded border border-amber-300 bg-amber-50 px-2 py-1.5 text-sm text-amber-900" role="status" data-testid="room-rule-closed">
      <p>{t("ruleClosed", { names })}</p>
      {reopens ? <p>{t("ruleClosedUntil", { date: tokyoShortDateTime(reopens, locale) })}</p> : null}
      <p>
        <Link to="/trade-rules" className="underline">
          {t("ruleClosedLink")}
        </Link>
      </p>
    </div>
  );
}

const QUICK_REPLIES: ChatMessageKey[] = ["quickFriendSent", "quickTradeSent", "quickWait", "quickThanks", "quickDecline"];

/** The two scams Japanese guides warn about, at the step where each happens. */
function ScamWarning({ step }: { step: "agree" | "gameTrade" | null }) {
  const t = useT(chatMessages);
  if (!step) return null;
  return (
    <p className="mt-2 rounded border border-amber-300 bg-amber-50 px-2 py-1.5 text-sm text-amber-900" data-testid={`scam-warning-${step}`}>
      {t(step === "agree" ? "warnOsusowake" : "warnTriangle")}
    </p>
  );
}

function Composer({ onSend }: { onSend: (body: string) => void }) {
  const t = useT(chatMessages);
  const [text, setText] = useState("");
  const [error, setError] = useState<string | null>(null);
  const length = [...text].length;
  const input = useRef<HTMLTextAreaElement>(null);
  // A quick reply fills the input (still editable) rather than sending: one tap, then 送信. It
  // never lands inside an IME composition, which only a keyboard makes.
  const quickReply = (phrase: string) => {
    setText((current) => (current.trim() ? `${current.replace(/\s+$/, "")} ${phrase}` : phrase));
    setError(null);
    input.current?.focus();
  };

  const submit = () => {
    const body = normaliseBody(text);
    if (!body) {
      setError(t("errorEmpty"));
      return;
    }
    if ([...body].length > MESSAGE_MAX_LENGTH) {
      setError(t("errorTooLong", { max: MESSAGE_MAX_LENGTH }));
      return;
    }
    setError(null);
    onSend(body);
    setText("");
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key !== "Enter" || e.shiftKey) return;
    // Enter that confirms a Japanese IME conversion must not send (keyCode 229 covers
    // browsers that end composition before the keydown arrives).
    if (e.nativeEvent.isComposing || e.keyCode === 229) return;
    e.preventDefault();
    submit();
  };

  return (
    <form
      className="flex flex-col gap-1"
      onSubmit={(e: FormEvent) => {
        e.preventDefault();
        submit();
      }}
    >
      <div role="group" aria-label={t("quickRepliesLabel")} className="-mx-1 flex gap-1.5 overflow-x-auto px-1 pb-1" data-testid="quick-replies">
        {QUICK_REPLIES.map((key) => (
          <button
            key={key}
            type="button"
            onClick={() => quickReply(t(key))}
            className="shrink-0 whitespace-nowrap rounded-full border border-slate-300 bg-white px-3 py-1 text-sm text-slate-800 hover:bg-slate-100"
          >
            {t(key)}
          </button>
        ))}
      </div>
      <label htmlFor="chat-input" className="sr-only">
        {t("inputLabel")}
      </label>
      <div className="flex items-end gap-2">
        <textarea
          id="chat-input"
          ref={input}
          name="body"
          value={text}
          rows={2}
          onChange={(e) => {
            setText(e.target.value);
            if (error) setError(null);
          }}
          onKeyDown={onKeyDown}
          placeholder={t("inputPlaceholder")}
          aria-invalid={error ? true : undefined}
          aria-describedby="chat-input-count chat-input-error"
          className="min-h-[3rem] flex-1 resize-y rounded border border-slate-300 bg-white p-2"
        />
        <button type="submit" className="rounded bg-brand-700 px-4 py-2 font-bold text-white hover:bg-brand-800">
          {t("send")}
        </button>
      </div>
      <div className="flex justify-between text-xs">
        <span id="chat-input-error" className="text-red-700">
          {error}
        </span>
        <span id="chat-input-count" className={length > MESSAGE_MAX_LENGTH ? "text-red-700" : "text-slate-600"}>
          {t("charCount", { count: length, max: MESSAGE_MAX_LENGTH })}
        </span>
      </div>
    </form>
  );
}
