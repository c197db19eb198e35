import { bodyLimitFor } from "./body-limits";
import { defineMessages, localeFromRequest, translate } from "./i18n";

const messages = defineMessages({
  ja: { notJson: "リクエストの形式が正しくありません", tooLarge: "リクエストが大きすぎます（{maxKb}KBまで）" },
  en: { notJson: "The request is not in the expected format", tooLarge: "The request is too large (up to {maxKb} KB)" },
});

/**
 * The JSON body of an API request, read at most its path's limit far (lib/body-limits.ts): a body that is not JSON (or not
 * sent as JSON) answers 400, a larger one 413 — thrown as the JSON response, which the API
 * wrappers pass on unchanged.
 */
export async function readJsonBody(request: Request): Promise<unknown> {
  const { maxBytes } = bodyLimitFor(new URL(request.url).pathname);
  const locale = localeFromRequest(request);
  const fail = (status: number, key: "notJson" | "tooLarge") =>
    Response.json({ error: translate(messages, locale, key, { maxKb: Math.floor(maxBytes / 1024) }) }, { status });
  if (!/^application\/json\b/i.test(request.headers.get("content-type") ?? "")) throw fail(400, "notJson");
  if (Number(request.headers.get("content-length") ?? "0") > maxBytes) throw fail(413, "tooLarge");
  const reader = request.body?.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (reader) {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel();
        throw fail(413, "tooLarge");
      }
      chunks.push(value);
    }
  }
  try {
    return JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(Buffer.concat(chunks)));
  } catch {
    throw fail(400, "notJson");
  }
}
