import { useEffect, useRef } from "react";
import { Link, useRevalidator } from "react-router";
import { useLocale, useT } from "#app/lib/i18n.tsx";
import { isDeletedUser, useShownName } from "#app/features/users/components/shown-name.ts";
import { acquireChatSocket } from "#app/features/chat/chat-socket.ts";
import { tokyoDateTime } from "#app/lib/tokyo-time.ts";
import { chatMessages, OFFER_STATUS_KEYS, type ChatMessageKey } from "#app/features/chat/messages.ts";
import { readerSide, sidesForReader } from "#app/features/chat/reader-side.ts";
import { roomSideText } from "./room-offer-cards";

export type ChatRoomListItem = {
  id: string;
  partnerName: string;
  offerStatus: string;
  role: "owner" | "partner";
  offerCards: { cardId: string; side: "give" | "want"; name: string; rarity: string }[];
  /** The offer's 何でも可 sides (they name no card). */
  giveAny: boolean;
  wantAny: boolean;
  lastMessage: { kind: "text" | "system"; body: string; createdAt: string } | null;
  unread: number;
};

const STEP_LABELS: Record<string, ChatMessageKey> = {
  agree: "stepAgree",
  agreed: "stepAgree",
  friend_requested: "stepFriendRequested",
  game_trade_requested: "stepGameTradeRequested",
  complete: "stepComplete",
  completed: "statusCompleted",
  cancel: "stepCancel",
};

/** The user's chat rooms on /profile: partner, offer, last message and unread count, kept live. */
export function ChatRoomsList({ rooms }: { rooms: ChatRoomListItem[] }) {
  const t = useT(chatMessages);
  const shownName = useShownName();
  const locale = useLocale();
  const revalidator = useRevalidator();
  const latest = useRef(revalidator);
  latest.current = revalidator;
  // A change that arrives while the list is already reloading may not be in that reload's
  // answer: remember it and reload once more when the current one ends.
  const pending = useRef(false);
  useEffect(() => {
    if (revalidator.state === "idle" && pending.current) {
      pending.current = false;
      void revalidator.revalidate();
    }
  }, [revalidator, revalidator.state]);
  useEffect(() => {
    const { socket, release } = acquireChatSocket();
    // Something changed in one of the rooms (a message arrived or was read): reload the list.
    const onChange = () => {
      if (latest.current.state === "idle") void latest.current.revalidate();
      else pending.current = true;
    };
    socket.on("chat:unread", onChange);
    // Events sent while the socket was away are not replayed: reload after every reconnect.
    socket.io.on("reconnect", onChange);
    return () => {
      socket.off("chat:unread", onChange);
      socket.io.off("reconnect", onChange);
      release();
    };
  }, []);

  return (
    <section aria-labelledby="profile-chats" className="mt-8">
      <h2 id="profile-chats" className="text-lg font-bold">
        {t("roomsHeading")}
      </h2>
      {rooms.length === 0 ? (
        <p className="mt-2 text-sm text-slate-600">{t("roomsEmpty")}</p>
      ) : (
        <ul className="mt-2 divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white" data-testid="chat-rooms">
          {rooms.map((room) => (
            <li key={room.id}>
              <Link to={`/chat/${room.id}`} className="flex items-start justify-between gap-3 px-3 py-2 hover:bg-slate-50">
                <div className="min-w-0">
                  <p className="font-bold">
                    {t(isDeletedUser(room.partnerName) ? "roomsWithPartnerLeft" : "roomsWith", { name: shownName(room.partnerName) })}{" "}
                    <span className="ml-1 rounded-full bg-brand-100 px-2 py-0.5 text-xs text-brand-800">{t(OFFER_STATUS_KEYS[room.offerStatus] ?? "statusClosed")}</span>
                  </p>
                  <p className="truncate text-xs text-slate-600">
                    {sidesForReader(room.role)
                      .map(
                        (side) =>
                          `${t(readerSide(side, room.role))}: ${roomSideText(room.offerCards, side, room, t("anySide"), " ")}`,
                      )
                      .join(" ⇄ ")}
                  </p>
                  <p className="truncate text-sm text-slate-700">
                    {room.lastMessage
                      ? room.lastMessage.kind === "system"
                        ? `【${t(STEP_LABELS[room.lastMessage.body] ?? "stepAgree")}】`
                        : room.lastMessage.body
                      : t("roomsNoMessages")}
                  </p>
                </div>
                <div className="flex shrink-0 flex-col items-end gap-1 text-xs text-slate-600">
                  {room.lastMessage ? <time dateTime={room.lastMessage.createdAt}>{tokyoDateTime(room.lastMessage.createdAt, locale)}</time> : null}
                  {room.unread > 0 ? (
                    <span className="rounded-full bg-red-700 px-2 py-0.5 font-bold text-white" data-testid="room-unread">
                      {t("roomsUnread", { count: room.unread })}
                    </span>
                  ) : null}
                </div>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
