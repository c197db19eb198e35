import { acquireChatSocket } from "../chat-socket";

/**
 * Calls `onChange` whenever the signed-in user's chat unread state may have moved (a partner's
 * message or step, a read in any tab) and after every (re)connect, over the page's one shared
 * chat socket. For other features that follow the same events (the notification bell).
 */
export function subscribeChatUnread(onChange: () => void): () => void {
  const { socket, release } = acquireChatSocket();
  socket.on("chat:unread", onChange);
  socket.on("connect", onChange);
  return () => {
    socket.off("chat:unread", onChange);
    socket.off("connect", onChange);
    release();
  };
}
