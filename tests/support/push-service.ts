import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
// web-push-testing's model: it creates subscriptions and decrypts what is pushed to them.
import { PushApiModel, SubscriptionExpiredError } from "web-push-testing/src/PushApiModel.js";

export type ReceivedPush = {
  clientHash: string;
  /** The decrypted payload. */
  payload: string;
  ttl: string | undefined;
  urgency: string | undefined;
  topic: string | undefined;
  at: number;
};

export type TestPushService = {
  url: string;
  /** A browser's subscription at this service for the site's VAPID public key. */
  subscribe(applicationServerKey: string): Promise<{ endpoint: string; keys: { p256dh: string; auth: string }; clientHash: string }>;
  /** Later pushes to this subscription answer 410 Gone. */
  expire(clientHash: string): void;
  received: ReceivedPush[];
  /** Answer the next `count` pushes with `status` (a busy or broken service). */
  failNext(count: number, status: number): void;
  close(): Promise<void>;
};

function body(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

/**
 * A push service on this machine (web-push-testing's model, in-process): it checks the VAPID
 * signature, decrypts each push and keeps it with the headers the site sent (TTL, Urgency, Topic),
 * and answers 410 for an expired subscription like a real one.
 */
export async function startTestPushService(): Promise<TestPushService> {
  const model = new PushApiModel();
  const received: ReceivedPush[] = [];
  let failures: { count: number; status: number } = { count: 0, status: 0 };
  const server: Server = createServer((req, res) => {
    void (async () => {
      const match = /^\/notify\/([0-9a-f]+)$/.exec(req.url ?? "");
      if (req.method !== "POST" || !match) {
        res.writeHead(404).end();
        return;
      }
      const raw = await body(req);
      if (failures.count > 0) {
        failures.count--;
        res.writeHead(failures.status).end();
        return;
      }
      const header = (name: string) => (req.headers[name] as string | undefined) ?? undefined;
      const before = (model.messages[match[1]] ?? []).length;
      try {
        await model.handleNotification(
          match[1],
          { encoding: header("content-encoding"), encryption: header("encryption"), cryptoKey: header("crypto-key"), authorization: header("authorization"), ttl: header("ttl") },
          raw,
        );
      } catch (err) {
        if (err instanceof SubscriptionExpiredError) res.writeHead(410).end("expired");
        else res.writeHead(400).end(err instanceof Error ? err.message : String(err));
        return;
      }
      const payload = (model.messages[match[1]] as string[])[before];
      received.push({ clientHash: match[1], payload, ttl: header("ttl"), urgency: header("urgency"), topic: header("topic"), at: Date.now() });
      res.writeHead(201).end();
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  model.notifyUrl = `${url}/notify/`;
  return {
    url,
    subscribe: (applicationServerKey) => model.subscribe({ applicationServerKey }),
    expire: (clientHash) => model.expireSubscription(clientHash),
    received,
    failNext: (count, status) => {
      failures = { count, status };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
