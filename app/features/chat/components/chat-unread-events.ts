import { acquireChatSocket } from "../chat-socket";

/**
 * Calls `onChange` whenever the signed-in user's unread state may have moved, over the page's one
 * shared chat socket: a partner's message or step, a room read in any tab, a notification of any
 * kind (`notice:unread`: a match, a want-list hit, a reminder…, with the new count when the
 * instance holding this tab read it), and after every (re)connect. For the features that follow
 * these events (the notification bell); no count means "read it yourself".
 */
export function subscribeUnreadChanges(onChange: (update?: { unread: number }) => void): () => void {
  const { socket, release } = acquireChatSocket();
  const onChat = () => onChange();
  const onNotice = (update: { unread?: number }) => onChange(typeof update?.unread === "number" ? { unread: update.unread } : undefined);
  socket.on("chat:unread", onChat);
  socket.on("notice:unread", onNotice);
  socket.on("connect", onChat);
  return () => {
    socket.off("chat:unread", onChat);
    socket.off("notice:unread", onNotice);
    socket.off("connect", onChat);
    release();
  };
}
