import type { IncomingMessage, ServerResponse } from "node:http";
import { escapeMarkup } from "#app/lib/markup.ts";
import type { Request, Response } from "express";
import { refusalBody } from "#app/lib/api.server.ts";
import { describeAppError, type AppError } from "#app/lib/errors.ts";
import { defineMessages, localeFromCookie, translate, type Locale, type Params } from "#app/lib/i18n.tsx";

/**
 * How the Express layer refuses a request before React Router sees it (body limits, unreadable
 * URLs): `{"error", "code"}` for APIs (`/api/…`, `.data` navigations, JSON requests), a short page in
 * the visitor's language otherwise.
 */
const edgeMessages = defineMessages({
  ja: {
    tooLarge: "送信された内容が大きすぎます（上限 {max}）。内容を減らしてもう一度お試しください。",
    lengthRequired: "送信された内容の大きさ（Content-Length）がわかりません。もう一度お試しください。",
    badPath: "ページが見つかりません。URLに使えない文字が含まれています。",
    badQuery: "URLの検索条件に使えない文字が含まれています。条件を入力し直してください。",
    unsupportedMedia: "送信された内容の形式（文字コードなど）には対応していません。",
    unreadableBody: "送信された内容を読み取れませんでした。もう一度お試しください。",
    tooLargeBody: "送信された内容が大きすぎます。内容を減らしてもう一度お試しください。",
    restarting: "サーバーを再起動しています。少し待ってからもう一度お試しください。",
    title: "リクエストを処理できませんでした",
    back: "トップページへ",
  },
  en: {
    tooLarge: "What you sent is too large (at most {max}). Please send less and try again.",
    lengthRequired: "The size of what you sent (Content-Length) is missing. Please try again.",
    badPath: "Page not found. The URL contains characters that cannot be used.",
    badQuery: "The URL's search conditions contain characters that cannot be used. Please enter them again.",
    unsupportedMedia: "The format of what you sent (its character set or encoding) is not supported.",
    unreadableBody: "What you sent could not be read. Please try again.",
    tooLargeBody: "What you sent is too large. Please send less and try again.",
    restarting: "The server is restarting. Please wait a moment and try again.",
    title: "The request could not be handled",
    back: "Go to the home page",
  },
});

export type EdgeMessageKey = keyof typeof edgeMessages.ja;

export function edgeText(locale: Locale, key: EdgeMessageKey, params?: Params): string {
  return translate(edgeMessages, locale, key, params);
}

function wantsJson(req: Pick<Request, "path" | "headers">): boolean {
  return req.path.startsWith("/api/") || req.path.endsWith(".data") || /json/i.test(req.headers.accept ?? "") || /json/i.test(req.headers["content-type"] ?? "");
}

const escapeHtml = escapeMarkup;

/** An AppError answered by Express itself (CSRF, analytics, the last-resort 500): the one JSON refusal. */
export function sendRefusal(req: Request, res: Response, error: AppError): void {
  const answer = describeAppError(error, localeFromCookie(req.headers.cookie));
  res.setHeader("Cache-Control", "no-store");
  res.status(answer.status).json(refusalBody(answer));
}

export function answerAtEdge(req: Request, res: Response, status: number, code: string, message: (locale: Locale) => string): void {
  const locale = localeFromCookie(req.headers.cookie);
  const text = message(locale);
  res.setHeader("Cache-Control", "no-store");
  if (wantsJson(req)) {
    // The refusal shape of every JSON answer (app/lib/api.server.ts).
    res.status(status).json(refusalBody({ status, code, message: text }));
    return;
  }
  res.status(status).type("html").send(edgePage(locale, text));
}

function edgePage(locale: Locale, text: string): string {
  const title = edgeText(locale, "title");
  return (
    `<!doctype html><html lang="${locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<title>${escapeHtml(title)}</title></head><body><main><h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p>` +
    `<p><a href="/">${escapeHtml(edgeText(locale, "back"))}</a></p></main></body></html>`
  );
}

/**
 * 503 from an instance that is shutting down (server/drain.ts), written before Express: the same
 * refusal shapes, and a Retry-After. A proxy retries it on another instance.
 */
export function answerRestarting(req: IncomingMessage, res: ServerResponse): void {
  const locale = localeFromCookie(req.headers.cookie);
  const text = edgeText(locale, "restarting");
  const json = wantsJson({ path: (req.url ?? "/").split("?")[0], headers: req.headers });
  const body = json ? JSON.stringify(refusalBody({ status: 503, code: "restarting", message: text })) : edgePage(locale, text);
  res.writeHead(503, {
    "Content-Type": json ? "application/json; charset=utf-8" : "text/html; charset=utf-8",
    "Content-Length": Buffer.byteLength(body),
    "Cache-Control": "no-store",
    "Retry-After": "1",
    Connection: "close",
  });
  res.end(body);
}

/**
 * The 4xx status of an error Express's body parsers (or another http-errors source) raised: an
 * unsupported charset or encoding (415), an aborted or malformed body (400), a body past the limit
 * (413). Undefined for anything else, which stays a server error.
 */
export function clientErrorStatus(err: unknown): number | undefined {
  if (typeof err !== "object" || err === null) return undefined;
  const { status, statusCode } = err as { status?: unknown; statusCode?: unknown };
  const value = typeof status === "number" ? status : statusCode;
  return typeof value === "number" && Number.isInteger(value) && value >= 400 && value < 500 ? value : undefined;
}

/** A client error that reached Express's last handler, answered with its own status in the one refusal shape. */
export function answerClientError(req: Request, res: Response, status: number): void {
  if (status === 413) return answerAtEdge(req, res, 413, "too_large", (locale) => edgeText(locale, "tooLargeBody"));
  if (status === 415) return answerAtEdge(req, res, 415, "unsupported_media_type", (locale) => edgeText(locale, "unsupportedMedia"));
  answerAtEdge(req, res, status, "unreadable", (locale) => edgeText(locale, "unreadableBody"));
}
