// One load-generating process of `npm run bench:chat` (forked by bench/chat.ts, never run by hand):
// it holds whole rooms (both participants), so a message's send time, carried in its body, and
// its arrival are read on the same monotonic clock (performance.now() of this process). It
// connects, warms every room up, waits for "go", sends its share of the rate on a steady
// schedule, drains, reports and exits. Bounded: every wait has a deadline.
import { io as connect, type Socket } from "socket.io-client";
import type { Ack, ChatMessage, ClientToServerEvents, ServerToClientEvents } from "#app/features/chat/protocol.ts";

type ChatClient = Socket<ServerToClientEvents, ClientToServerEvents>;

export type Participant = { userId: string; roomId: string; cookie: string };
/** From the parent: who to connect (index i joins server urls[i % 2 ? last : first]), how fast and how long. */
export type ClientPlan = { people: Participant[]; urls: string[]; rate: number; seconds: number; drainMs: number; ackTimeoutMs: number };
export type ClientReport = {
  latencies: number[];
  sent: number;
  acked: number;
  refused: number;
  retries: number;
  lost: number;
  duplicated: number;
};
type FromParent = { type: "plan"; plan: ClientPlan } | { type: "go" };

const send = (message: unknown) => new Promise<void>((resolve) => process.send!(message, () => resolve()));
// Never outlive the parent, whatever happens to it.
process.on("disconnect", () => process.exit(0));

function connectAll(plan: ClientPlan): Promise<ChatClient[]> {
  const connectOne = (p: Participant, i: number) =>
    new Promise<ChatClient>((resolve, reject) => {
      // Owner on the first instance, partner on the last: with two instances every message crosses Redis.
      const url = plan.urls[i % 2 === 0 ? 0 : plan.urls.length - 1];
      const socket: ChatClient = connect(`${url}/chat`, {
        transports: ["websocket"],
        reconnection: false,
        forceNew: true,
        timeout: 60_000,
        extraHeaders: { cookie: p.cookie, origin: url },
      });
      socket.once("connect", () => {
        socket.timeout(60_000).emit("chat:join", { roomId: p.roomId }, (err: Error | null, reply: Ack<{ lastSeq: number }>) =>
          err ? reject(err) : reply.ok ? resolve(socket) : reject(new Error(reply.message)),
        );
      });
      socket.once("connect_error", reject);
    });
  return (async () => {
    const sockets: ChatClient[] = [];
    for (let i = 0; i < plan.people.length; i += 50) {
      sockets.push(...(await Promise.all(plan.people.slice(i, i + 50).map((p, j) => connectOne(p, i + j)))));
    }
    return sockets;
  })();
}

async function run(plan: ClientPlan, go: Promise<void>): Promise<ClientReport> {
  const { people } = plan;
  const sockets = await connectAll(plan);
  const acked = new Set<string>();
  const received = new Map<string, number>(); // clientId → times seen by the partner
  const latencies: number[] = [];
  let refused = 0;
  let retries = 0;
  let measuring = false;
  sockets.forEach((socket, i) => {
    const me = people[i].userId;
    socket.on("chat:message", (m: ChatMessage) => {
      if (!measuring || m.senderId === me || !m.clientId || m.clientId.startsWith("warm-")) return;
      const n = (received.get(m.clientId) ?? 0) + 1;
      received.set(m.clientId, n);
      // The body is "ベンチ <n> <send time>": the send time on this process's monotonic clock.
      if (n === 1) latencies.push(performance.now() - Number(m.body.slice(m.body.lastIndexOf(" ") + 1)));
    });
  });

  // Like the browser: one message in flight per client (the next waits for the ack), and a
  // send without an ack in time is retried with the same clientId.
  const queues = sockets.map(() => [] as { clientId: string; body: string }[]);
  const busy = sockets.map(() => false);
  const pump = (i: number) => {
    const head = queues[i][0];
    if (!head || busy[i]) return;
    busy[i] = true;
    sockets[i].timeout(plan.ackTimeoutMs).emit("chat:send", { roomId: people[i].roomId, clientId: head.clientId, body: head.body }, (err: Error | null, reply: Ack<{ message: ChatMessage }>) => {
      busy[i] = false;
      if (err) retries++;
      else {
        queues[i].shift();
        if (reply.ok) acked.add(head.clientId);
        else refused++;
      }
      pump(i);
    });
  };

  // Warm-up (not measured): one message in every room, so code paths and connections are hot.
  await Promise.all(
    sockets
      .filter((_, i) => i % 2 === 0)
      .map((socket, pair) => socket.timeout(60_000).emitWithAck("chat:send", { roomId: people[pair * 2].roomId, clientId: `warm-${process.pid}-${pair}`, body: "warm-up" }).catch(() => null)),
  );
  await send({ type: "ready" });
  await go;
  measuring = true;

  const total = Math.round(plan.rate * plan.seconds);
  let next = 0;
  const began = performance.now();
  await new Promise<void>((resolve) => {
    // Every 10 ms, send what the schedule says is due: a steady rate, not bursts.
    const timer = setInterval(() => {
      const due = Math.min(total, Math.floor(((performance.now() - began) / 1000) * plan.rate));
      for (; next < due; next++) {
        const i = (next * 7919) % sockets.length; // spread senders over every client
        const clientId = `b${process.pid}-${next}`;
        queues[i].push({ clientId, body: `ベンチ ${next} ${performance.now()}` });
        pump(i);
      }
      if (next >= total) {
        clearInterval(timer);
        resolve();
      }
    }, 10);
  });
  const drainUntil = Date.now() + plan.drainMs;
  while (Date.now() < drainUntil && (acked.size + refused < total || [...acked].some((id) => !received.has(id)))) {
    await new Promise((r) => setTimeout(r, 200));
  }
  for (const s of sockets) s.close();
  return {
    latencies,
    sent: total,
    acked: acked.size,
    refused,
    retries,
    lost: [...acked].filter((id) => !received.has(id)).length,
    duplicated: [...received.values()].filter((n) => n > 1).length,
  };
}

let startGo: () => void = () => {};
const go = new Promise<void>((resolve) => (startGo = resolve));
process.on("message", (message: FromParent) => {
  if (message.type === "go") startGo();
  if (message.type === "plan") {
    run(message.plan, go).then(
      (report) => send({ type: "report", report }).then(() => process.disconnect()),
      (err: unknown) => send({ type: "failed", error: err instanceof Error ? err.message : String(err) }).then(() => process.disconnect()),
    );
  }
});
