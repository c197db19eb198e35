import { randomBytes } from "node:crypto";
import { io as connect, type Socket } from "socket.io-client";
import type { Ack, ClientToServerEvents, ServerToClientEvents } from "#app/features/chat/protocol.ts";
import type { RunningServer } from "./server";

/**
 * Talking to running server instances without a browser (the multi-instance tests): HTTP as a
 * browser sends it (origin, session cookie) and the chat socket.
 */
export type ChatClient = Socket<ServerToClientEvents, ClientToServerEvents>;

export async function http(server: Pick<RunningServer, "url">, path: string, init: { method?: string; cookie?: string; json?: unknown; form?: Record<string, string> } = {}) {
  const headers: Record<string, string> = { origin: server.url };
  if (init.cookie) headers.cookie = init.cookie;
  let body: string | undefined;
  if (init.json !== undefined) {
    headers["content-type"] = "application/json";
    body = JSON.stringify(init.json);
  } else if (init.form) {
    headers["content-type"] = "application/x-www-form-urlencoded";
    body = new URLSearchParams(init.form).toString();
  }
  return fetch(server.url + path, { method: init.method ?? (body ? "POST" : "GET"), headers, body, redirect: "manual" });
}

/** Signs up on `server` (an instance, or the proxy in front of several) and sets a display name and friend ID; the session cookie comes back. */
export async function signUp(server: Pick<RunningServer, "url">, name: string): Promise<{ id: string; email: string; cookie: string }> {
  const email = `multi-${randomBytes(5).toString("hex")}@example.com`;
  const res = await http(server, "/api/auth/sign-up/email", { json: { email, password: "chat-password-1", name } });
  if (res.status !== 200) throw new Error(`sign-up failed: ${res.status} ${await res.text()}`);
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .find((c) => c.startsWith("torepoke.session_token="));
  if (!cookie) throw new Error("no session cookie");
  const { user } = (await res.json()) as { user: { id: string } };
  const profile = await http(server, "/profile", { cookie, form: { displayName: name, friendId: String(Math.floor(Math.random() * 1e16)).padStart(16, "7") } });
  if (profile.status !== 200) throw new Error(`profile update failed: ${profile.status}`);
  return { id: user.id, email, cookie };
}

/** A socket on `server`'s /chat namespace with the player's session; `sockets` collects it for closing. */
export function chatSocket(server: RunningServer, cookie: string, sockets: ChatClient[]): Promise<ChatClient> {
  const socket: ChatClient = connect(`${server.url}/chat`, { transports: ["websocket"], reconnection: false, extraHeaders: { cookie, origin: server.url } });
  sockets.push(socket);
  return new Promise((resolve, reject) => {
    socket.once("connect", () => resolve(socket));
    socket.once("connect_error", reject);
  });
}

export function call<T extends object>(socket: ChatClient, event: string, payload: unknown): Promise<Ack<T>> {
  return new Promise((resolve) => (socket.emit as (e: string, p: unknown, cb: (r: Ack<T>) => void) => void)(event, payload, resolve));
}
