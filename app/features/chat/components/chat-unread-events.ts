import { acquireChatSocket } from "#app/features/chat/chat-socket.ts";

/**
 * Calls `onChange` whenever the signed-in user's unread state may have moved, over the page's one
 * shared chat socket: a partner's message or step, a room read in any tab, a notification of any
 * kind (a match, a want-list hit, a reminder…: `notice:unread` with the new count from the
 * instance holding this tab, `notice:changed` without one from another instance), and after every
 * (re)connect. For the features that follow these events (the notification bell); no count means
 * "read it yourself".
 */
export function subscribeUnreadChanges(onChange: (update?: { unread: number }) => void): () => void {
  const { socket, release } = acquireChatSocket();
  const onChat = () => onChange();
  socket.on("chat:unread", onChat);
  socket.on("notice:unread", onChange);
  socket.on("notice:changed", onChat);
  socket.on("connect", onChat);
  return () => {
    socket.off("chat:unread", onChat);
    socket.off("notice:unread", onChange);
    socket.off("notice:changed", onChat);
    socket.off("connect", onChat);
    release();
  };
}
