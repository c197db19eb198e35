import type { AddressInfo } from "node:net";
import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer, type SMTPServerAddress } from "smtp-server";

export type ReceivedMail = ParsedMail & { envelopeTo: string[] };

export type TestSmtpServer = {
  url: string;
  port: number;
  received: ReceivedMail[];
  /** Answer RCPT TO for `address` with an SMTP error (e.g. 451 or 550) the next `times` times (Infinity: always). */
  refuse(address: string, code: number, times?: number): void;
  /** Mails to `address` so far. */
  to(address: string): ReceivedMail[];
  close(): Promise<void>;
};

/**
 * A real SMTP server on 127.0.0.1 (the npm package smtp-server), for tests and benchmarks: the
 * mail module talks SMTP to it exactly as to a provider; messages are parsed with mailparser.
 * `parse: false` only counts recipients (for the 10,000-mail benchmark).
 */
export async function startTestSmtpServer(options: { parse?: boolean } = {}): Promise<TestSmtpServer> {
  const parse = options.parse ?? true;
  const received: ReceivedMail[] = [];
  const refusals = new Map<string, { code: number; times: number }>();
  const server = new SMTPServer({
    authOptional: true,
    // Plain SMTP on loopback: no self-signed STARTTLS for the client to reject.
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    size: 10 * 1024 * 1024,
    onRcptTo(address: SMTPServerAddress, _session, callback) {
      const refusal = refusals.get(address.address.toLowerCase());
      if (refusal && refusal.times > 0) {
        refusal.times -= 1;
        const err = Object.assign(new Error(refusal.code >= 500 ? "mailbox unavailable" : "try again later"), { responseCode: refusal.code });
        return callback(err);
      }
      callback();
    },
    onData(stream, session, callback) {
      const envelopeTo = session.envelope.rcptTo.map((r) => r.address);
      if (!parse) {
        stream.on("data", () => {});
        stream.on("end", () => {
          received.push({ envelopeTo } as ReceivedMail);
          callback();
        });
        return;
      }
      simpleParser(stream)
        .then((mail) => {
          received.push(Object.assign(mail, { envelopeTo }));
          callback();
        })
        .catch((err: Error) => callback(err));
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    received,
    refuse(address, code, times = Infinity) {
      refusals.set(address.toLowerCase(), { code, times });
    },
    to: (address) => received.filter((m) => m.envelopeTo.includes(address)),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
