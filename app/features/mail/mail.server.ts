import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { randomBytes } from "node:crypto";
import nodemailer from "nodemailer";
import type { Queryable } from "#app/db/sql.server.ts";
import type { Env } from "#app/lib/env.server.ts";
import type { Logger } from "#app/lib/logger.server.ts";
import { defineDeliveryKind, enqueueDelivery, registerDeliveryHandler, TemporaryDeliveryError, type DeliveryJob } from "#app/features/outbox/outbox.server.ts";
import { z } from "#app/lib/zod.ts";

/** What a request queues: one message to one address, already rendered (templates.ts). */
const MailMessageSchema = z.object({
  to: z.string(),
  locale: z.enum(["ja", "en"]),
  subject: z.string(),
  text: z.string(),
  html: z.string(),
  headers: z.record(z.string(), z.string()).optional(),
});
export type MailMessage = z.infer<typeof MailMessageSchema>;

/** The outbox kind of one rendered mail. */
export const MAIL_DELIVERY = defineDeliveryKind("mail", MailMessageSchema);

/**
 * Queues a message in the caller's transaction; the outbox worker sends it after the commit
 * (never inside the request). `dedupeKey` keeps a retried action from queuing it twice: answers
 * whether it was queued.
 */
export async function enqueueMail(tx: Queryable, message: MailMessage, options: { dedupeKey?: string; runAt?: Date } = {}): Promise<boolean> {
  // .invalid is reserved (RFC 2606): the placeholder of an account without an address, or a deleted one's.
  if (isUndeliverable(message.to)) return false;
  return enqueueDelivery(tx, MAIL_DELIVERY, { payload: message, dedupeKey: options.dedupeKey, runAt: options.runAt });
}

/** How one send is told apart: `messageId` (with its angle brackets) is the mail's Message-ID header. */
export type SendOptions = { messageId?: string };

export type MailTransport = {
  /** "smtp" with SMTP_URL, else "file" (.eml files in DATA_DIR/mail). */
  kind: "smtp" | "file";
  send(message: MailMessage, options?: SendOptions): Promise<void>;
  close(): void;
};

/** An address in the reserved .invalid domain, which no mail can reach. */
export const isUndeliverable = (address: string): boolean => /\.invalid$/i.test(address.trim());

/** The first http(s) link of a text, for the log line of a mail written to a file. */
export function firstLink(text: string): string | undefined {
  return /https?:\/\/[^\s<>"]+/.exec(text)?.[0];
}

/**
 * The Message-ID of the mail of one outbox row, the same on every try: a row sent again after a
 * crash (sent, not yet marked) is folded with the first by the mail client. The row's creation
 * time joins its id because ids start again at 1 in a new database (a reset data folder), and a
 * new mail must never look like a repeat of an old one.
 */
export function outboxMessageId(job: Pick<DeliveryJob, "id" | "createdAt">, siteUrl: string): string {
  return `<${job.id}.${job.createdAt.getTime().toString(36)}.outbox@${new URL(siteUrl).hostname}>`;
}

function mailOptions(from: string, message: MailMessage, options: SendOptions = {}) {
  return {
    from,
    ...(options.messageId ? { messageId: options.messageId } : {}),
    to: message.to,
    subject: message.subject,
    text: message.text,
    html: message.html,
    headers: { "Content-Language": message.locale, ...message.headers },
    // Base64 bodies: Japanese text stays intact through every relay (no long quoted-printable lines).
    textEncoding: "base64" as const,
  };
}

/**
 * SMTP errors sorted for the outbox: a 4xx reply or a lost connection is worth retrying
 * (TemporaryDeliveryError); a 5xx reply (unknown mailbox, refused) is not.
 */
export function classifySmtpError(err: unknown): Error {
  const e = err as { responseCode?: number; code?: string; message?: string };
  const reason = `${e.responseCode ? `${e.responseCode} ` : ""}${e.message ?? String(err)}`.trim();
  if (typeof e.responseCode === "number") {
    return e.responseCode >= 400 && e.responseCode < 500 ? new TemporaryDeliveryError(reason) : new Error(reason);
  }
  const temporary = ["ECONNECTION", "ETIMEDOUT", "ESOCKET", "EDNS", "ETLS", "ECONNREFUSED", "ECONNRESET", "EPIPE", "EPROTOCOL"];
  if (e.code && temporary.includes(e.code)) return new TemporaryDeliveryError(reason);
  return new Error(reason);
}

export function createMailTransport(env: Pick<Env, "smtpUrl" | "mailFrom" | "dataDir">, log?: Logger): MailTransport {
  if (env.smtpUrl) {
    const transporter = nodemailer.createTransport({
      url: env.smtpUrl,
      pool: true,
      maxConnections: 5,
      // Well inside the outbox lease (2 minutes), so a hung server cannot make a row be sent twice.
      connectionTimeout: 20_000,
      greetingTimeout: 15_000,
      socketTimeout: 30_000,
    });
    return {
      kind: "smtp",
      async send(message, options) {
        try {
          await transporter.sendMail(mailOptions(env.mailFrom, message, options));
        } catch (err) {
          throw classifySmtpError(err);
        }
      },
      close: () => transporter.close(),
    };
  }
  const folder = path.join(env.dataDir, "mail");
  const composer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
  return {
    kind: "file",
    async send(message, options) {
      const info = await composer.sendMail(mailOptions(env.mailFrom, message, options));
      mkdirSync(folder, { recursive: true });
      const stamp = new Date().toISOString().replace(/[-:]/g, "").replace(/\..+$/, "");
      const file = path.join(folder, `${stamp}-${randomBytes(4).toString("hex")}.eml`);
      writeFileSync(file, info.message as Buffer, { mode: 0o600 });
      log?.info("mail written", { file, to: message.to, subject: message.subject, link: firstLink(message.text) });
    },
    close: () => composer.close(),
  };
}

/**
 * Makes this process deliver queued mail (the outbox worker calls it for rows of kind "mail").
 * Returns the transport so start-up can close it at shutdown.
 */
export function registerMailDelivery(env: Pick<Env, "smtpUrl" | "mailFrom" | "dataDir" | "siteUrl">, log?: Logger): MailTransport {
  const transport = createMailTransport(env, log);
  registerDeliveryHandler(MAIL_DELIVERY, async (message, job) => {
    await transport.send(message, { messageId: outboxMessageId(job, env.siteUrl) });
  });
  return transport;
}
