import { escapeMarkup } from "#app/lib/markup.ts";
import { translate, type Locale } from "#app/lib/i18n.tsx";
import type { MailMessage } from "./mail.server";
import { mailMessages } from "./messages";

/**
 * A paragraph, or one told two ways: the HTML part draws the action as a button ("下のボタンを押して"),
 * the plain-text part has only its URL ("下のリンクを開いて").
 */
export type MailParagraph = string | { html: string; text: string };

/** A mail's content as plain text pieces; renderMail escapes them for the HTML part. */
export type MailContent = {
  subject: string;
  /** Addressed by name when known. */
  name?: string;
  paragraphs: MailParagraph[];
  /** The one link the mail is about (reset, verify, …), as a button and as a plain URL. */
  action?: { label: string; url: string };
  /** Smaller lines after the action ("this link is valid for one hour"). */
  notes?: string[];
};

const escapeHtml = escapeMarkup;

/**
 * A Japanese-first mail (English when the user's language is English): plain text plus a simple
 * HTML part that says the same, with the site name and its URL in the footer.
 */
export function renderMail(
  content: MailContent,
  context: { locale: Locale; siteUrl: string; to: string },
): MailMessage {
  const t = (key: keyof (typeof mailMessages)["ja"], params?: Record<string, string>) => translate(mailMessages, context.locale, key, params);
  const greeting = content.name ? t("greeting", { name: content.name }) : undefined;
  const footer = [t("footerNoReply"), t("footerNotYou"), "", t("footerSite", { siteUrl: context.siteUrl })];

  const text = [
    ...(greeting ? [greeting, ""] : []),
    ...content.paragraphs.flatMap((p) => [typeof p === "string" ? p : p.text, ""]),
    ...(content.action ? [content.action.url, ""] : []),
    ...(content.notes?.length ? [...content.notes, ""] : []),
    "――――――――――",
    ...footer,
    "",
  ].join("\n");

  const p = (s: string, style = "") => `<p style="margin:0 0 16px;${style}">${escapeHtml(s).replace(/\n/g, "<br>")}</p>`;
  const action = content.action
    ? `<p style="margin:24px 0"><a href="${escapeHtml(content.action.url)}" style="display:inline-block;background:#e11d48;color:#ffffff;text-decoration:none;padding:12px 20px;border-radius:8px;font-weight:bold">${escapeHtml(content.action.label)}</a></p>` +
      p(t("linkFallback"), "font-size:13px;color:#555") +
      `<p style="margin:0 0 16px;font-size:13px;word-break:break-all"><a href="${escapeHtml(content.action.url)}">${escapeHtml(content.action.url)}</a></p>`
    : "";
  const html = `<!doctype html>
<html lang="${context.locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(content.subject)}</title></head>
<body style="margin:0;padding:24px;background:#f6f6f6;font-family:'Hiragino Sans','Noto Sans JP',Meiryo,sans-serif;color:#222;line-height:1.7">
<div style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:12px;padding:24px">
<p style="margin:0 0 16px;font-weight:bold;font-size:18px"><a href="${escapeHtml(context.siteUrl)}" style="color:#e11d48;text-decoration:none">${escapeHtml(t("siteName"))}</a></p>
${greeting ? p(greeting) : ""}${content.paragraphs.map((s) => p(typeof s === "string" ? s : s.html)).join("")}${action}${(content.notes ?? []).map((s) => p(s, "font-size:13px;color:#555")).join("")}
<hr style="border:none;border-top:1px solid #ddd;margin:24px 0 16px">
${p(footer.filter(Boolean).slice(0, 2).join("\n"), "font-size:12px;color:#777")}<p style="margin:0;font-size:12px;color:#777"><a href="${escapeHtml(context.siteUrl)}" style="color:#777">${escapeHtml(t("footerSite", { siteUrl: context.siteUrl }))}</a></p>
</div></body></html>
`;
  return { to: context.to, locale: context.locale, subject: `${t("subjectPrefix")}${content.subject}`, text, html };
}
