import type { Queryable } from "#app/db/sql.server.ts";
import { translate, type Locale } from "#app/lib/i18n.tsx";
import { enqueueMail } from "#app/features/mail/mail.server.ts";
import { renderMail } from "#app/features/mail/templates.server.ts";
import { accountMailMessages, type AccountMailMessageKey } from "./account-mail-messages.server";
import { accountMessages } from "./account-messages";

/** The account mails (reset, verification, change of address, deletion), queued through the outbox. */
type Context = { locale: Locale; siteUrl: string };

const t = (locale: Locale, key: AccountMailMessageKey, params?: Record<string, string>) => translate(accountMailMessages, locale, key, params);

// One reset / verification mail per account per window at most: a stranger pressing the button
// in a loop cannot fill someone's inbox (the first mail's link stays valid meanwhile).
const MAIL_WINDOW_MS = 2 * 60 * 1000;
const windowKey = () => Math.floor(Date.now() / MAIL_WINDOW_MS);

export async function queuePasswordResetMail(tx: Queryable, ctx: Context, user: { id: string; email: string; name: string }, url: string) {
  const l = ctx.locale;
  const message = renderMail(
    { subject: t(l, "mailResetSubject"), name: user.name, paragraphs: [{ html: t(l, "mailResetBody"), text: t(l, "mailResetBodyText") }], action: { label: t(l, "mailResetAction"), url }, notes: [t(l, "mailResetNote")] },
    { ...ctx, to: user.email },
  );
  // Keyed by address too: a reset asked for another address of the account (before a change was undone) never swallows this one.
  await enqueueMail(tx, message, { dedupeKey: `password-reset:${user.id}:${user.email.toLowerCase()}:${windowKey()}` });
}

export async function queuePasswordChangedMail(tx: Queryable, ctx: Context, user: { email: string; name: string }) {
  const l = ctx.locale;
  const message = renderMail(
    { subject: t(l, "mailResetDoneSubject"), name: user.name, paragraphs: [t(l, "mailResetDoneBody")], action: { label: translate(accountMessages, l, "forgotLink"), url: `${ctx.siteUrl}/forgot-password` }, notes: [t(l, "mailResetDoneNote")] },
    { ...ctx, to: user.email },
  );
  await enqueueMail(tx, message);
}

/** Answers whether a mail was queued (not when one went to this address within the window). */
export async function queueVerificationMail(tx: Queryable, ctx: Context, user: { id: string; email: string; name: string }, url: string, options: { dedupe?: boolean } = {}): Promise<boolean> {
  const l = ctx.locale;
  const message = renderMail(
    { subject: t(l, "mailVerifySubject"), name: user.name, paragraphs: [{ html: t(l, "mailVerifyBody"), text: t(l, "mailVerifyBodyText") }], action: { label: t(l, "mailVerifyAction"), url }, notes: [t(l, "mailVerifyNote")] },
    { ...ctx, to: user.email },
  );
  return enqueueMail(tx, message, options.dedupe === false ? {} : { dedupeKey: `verify:${user.id}:${user.email}:${windowKey()}` });
}

/**
 * The link to confirm a new address goes to the new address; the old one is told, with a link to
 * undo it (これは私ではありません). The new address may be a stranger's: its mail carries nothing
 * the requester chose (no display name), only the site's own text and the link.
 */
export async function queueEmailChangeMails(tx: Queryable, ctx: Context, user: { id: string; oldEmail: string; newEmail: string; name: string }, url: string, notMeUrl: string) {
  const l = ctx.locale;
  await enqueueMail(
    tx,
    renderMail(
      { subject: t(l, "mailChangeSubject"), paragraphs: [{ html: t(l, "mailChangeBody"), text: t(l, "mailChangeBodyText") }], action: { label: t(l, "mailChangeAction"), url }, notes: [t(l, "mailVerifyNote"), t(l, "mailChangeStrangerNote")] },
      { ...ctx, to: user.newEmail },
    ),
    { dedupeKey: `change-email:${user.id}:${user.newEmail}:${windowKey()}` },
  );
  await enqueueMail(
    tx,
    renderMail(
      {
        subject: t(l, "mailChangeOldSubject"),
        name: user.name,
        paragraphs: [t(l, "mailChangeOldBody", { newEmail: user.newEmail }), { html: t(l, "mailChangeOldNotMe"), text: t(l, "mailChangeOldNotMeText") }],
        action: { label: t(l, "mailChangeOldNotMeAction"), url: notMeUrl },
        notes: [t(l, "mailChangeOldNote")],
      },
      { ...ctx, to: user.oldEmail },
    ),
    { dedupeKey: `change-email-old:${user.id}:${user.newEmail}:${windowKey()}` },
  );
}

/** Not addressed by name: after deletion, this queued mail is the only place the address remains until sent. */
export async function queueAccountDeletedMail(tx: Queryable, ctx: Context, user: { email: string }) {
  const l = ctx.locale;
  await enqueueMail(tx, renderMail({ subject: t(l, "mailDeletedSubject"), paragraphs: [t(l, "mailDeletedBody")] }, { ...ctx, to: user.email }));
}
