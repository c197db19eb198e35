import { io, type Socket } from "socket.io-client";
import { CHAT_NAMESPACE, type ClientToServerEvents, type ServerToClientEvents } from "./protocol";

type ChatSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

let shared: ChatSocket | null = null;
let users = 0;

/**
 * One connection for the passive listeners of a page (header badge, rooms list), opened by the
 * first and closed by the last. The room page keeps its own socket, whose life is the room's.
 */
export function acquireChatSocket(): { socket: ChatSocket; release: () => void } {
  if (!shared) shared = io(CHAT_NAMESPACE, { transports: ["websocket"], withCredentials: true });
  users++;
  const socket = shared;
  let released = false;
  return {
    socket,
    release: () => {
      if (released) return;
      released = true;
      users--;
      if (users === 0 && shared) {
        shared.close();
        shared = null;
      }
    },
  };
}
