import { useEffect, useState } from "react";
import { useT } from "#app/lib/i18n.tsx";
import { acquireChatSocket } from "#app/features/chat/chat-socket.ts";
import { unreadBadgeMessages } from "./unread-badge-messages";

/**
 * The header's unread-chat count, live: asks once on connect, then follows the server's
 * `chat:unread` pushes (new messages from partners, reads in any tab). Renders nothing at zero
 * and nothing on the server (the count is per user and never cached in the page).
 */
export function UnreadBadge() {
  const t = useT(unreadBadgeMessages);
  const [total, setTotal] = useState(0);
  useEffect(() => {
    const { socket, release } = acquireChatSocket();
    const ask = () => socket.emit("chat:unread", (reply) => reply.ok && setTotal(reply.total));
    const onUnread = (update: { total: number }) => setTotal(update.total);
    socket.on("connect", ask);
    socket.on("chat:unread", onUnread);
    if (socket.connected) ask();
    return () => {
      socket.off("connect", ask);
      socket.off("chat:unread", onUnread);
      release();
    };
  }, []);
  if (total <= 0) return null;
  return (
    <span
      className="ml-1 inline-flex min-w-[1.25rem] items-center justify-center rounded-full bg-red-700 px-1.5 text-xs font-bold leading-5 text-white"
      data-testid="chat-unread-badge"
    >
      <span aria-hidden="true">{total > 99 ? "99+" : total}</span>
      <span className="sr-only">{t("badgeLabel", { count: total })}</span>
    </span>
  );
}
