import type { Server as SocketServer } from "socket.io";
import { isChangeKind, onLocalChange, receiveRemoteChange, type ChangeKind } from "#app/lib/change-bus.server.ts";

/** Server-to-server event carrying one change of the bus (app/lib/change-bus.server.ts). */
export const CHANGE_EVENT = "change";

/**
 * Relays the change bus across instances: each change published here goes to the other servers
 * through Socket.IO's server-side events (the Redis adapter carries them with REDIS_URL), and each
 * one they send is delivered here as a remote change. Changes without a payload are sent at most
 * once a tick per kind: a burst of writes makes one message. Returns the function that stops it.
 */
export function relayChanges(io: SocketServer): () => void {
  const queued = new Set<ChangeKind>();
  const stop = onLocalChange((kind, ...payload) => {
    if (payload.length > 0) {
      io.serverSideEmit(CHANGE_EVENT, kind, ...payload);
      return;
    }
    if (queued.has(kind)) return;
    queued.add(kind);
    setImmediate(() => {
      queued.delete(kind);
      io.serverSideEmit(CHANGE_EVENT, kind);
    });
  });
  const receive = (kind: unknown, ...payload: unknown[]) => {
    if (!isChangeKind(kind)) return;
    (receiveRemoteChange as (kind: ChangeKind, ...payload: unknown[]) => void)(kind, ...payload);
  };
  io.on(CHANGE_EVENT, receive);
  return () => {
    stop();
    io.off(CHANGE_EVENT, receive);
  };
}
