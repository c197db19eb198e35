import { data } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import { formError, formRefusal, withJsonErrors, withPageErrors } from "./api.server";
import { AppError } from "./errors";
import { defineMessages } from "./i18n";
import { createLogger, type Logger } from "./logger.server";

afterEach(() => vi.restoreAllMocks());

describe("withJsonErrors", () => {
  it("passes answers through", async () => {
    const loader = withJsonErrors(async (n: number) => Response.json({ n }));
    expect(await (await loader(2) as Response).json()).toEqual({ n: 2 });
  });

  it("turns an unexpected failure into a JSON 500, logged once by the request's logger with its id", async () => {
    const lines: string[] = [];
    const log = createLogger("info", (line) => lines.push(line)).child({ requestId: "req-1" });
    const loader = withJsonErrors(async (_args: { context: { log: Logger } }) => {
      throw new Error("connection reset");
    });
    const res = (await loader({ context: { log } })) as Response;
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ error: "サーバーでエラーが発生しました。時間をおいてもう一度お試しください。", code: "internal" });
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0])).toMatchObject({ level: "error", msg: "unhandled error", requestId: "req-1", error: "connection reset" });
  });

  it("lets deliberate responses through unchanged", async () => {
    const notFound = Response.json({ error: "not found" }, { status: 404 });
    await expect(withJsonErrors(async () => { throw notFound; })()).rejects.toBe(notFound);
    const forbidden = data({ error: "forbidden" }, { status: 403 });
    await expect(withJsonErrors(async () => { throw forbidden; })()).rejects.toBe(forbidden);
  });
});

describe("the AppError mappings", () => {
  const catalogue = defineMessages({ ja: { gone: "「{name}」は見つかりません", slow: "待ってください" }, en: { gone: "{name} is not there", slow: "Please wait" } });
  const TABLE = { not_found: [404, "gone"], rate_limited: [429, "slow"] } as const;
  class SampleError extends AppError<keyof typeof TABLE> {
    constructor(code: keyof typeof TABLE, params?: Record<string, string>) {
      super(catalogue, TABLE, code, params);
    }
  }
  const request = (lang?: string) => new Request("http://localhost/api/x", { headers: lang ? { cookie: `lang=${lang}` } : {} });

  it("answers JSON {error, code} with the error's status, in the caller's language", async () => {
    const loader = withJsonErrors(async (_args: { request: Request }) => {
      throw new SampleError("not_found", { name: "ピカチュウ" });
    });
    const ja = (await loader({ request: request() })) as Response;
    expect(ja.status).toBe(404);
    expect(await ja.json()).toEqual({ error: "「ピカチュウ」は見つかりません", code: "not_found" });
    const en = (await loader({ request: request("en") })) as Response;
    expect(await en.json()).toEqual({ error: "ピカチュウ is not there", code: "not_found" });
  });

  it("hands a page's AppError to its error boundary as {code, message} with the status", async () => {
    const loader = withPageErrors(async (_args: { request: Request }) => {
      throw new SampleError("rate_limited");
    });
    const thrown = await loader({ request: request("en") }).then(() => null, (error: unknown) => error);
    expect(thrown).toMatchObject({ type: "DataWithResponseInit", data: { code: "rate_limited", message: "Please wait" }, init: { status: 429 } });
  });

  it("gives a form its message and code and rethrows anything else", () => {
    const answer = formError(new SampleError("rate_limited"), "ja", { intent: "bump" });
    expect(answer).toMatchObject({ data: { intent: "bump", message: "待ってください", code: "rate_limited" }, init: { status: 429 } });
    const other = new Error("boom");
    expect(() => formError(other, "ja")).toThrow(other);
  });

  it("gives a form a refusal that did not start as an AppError in the same shape, leaving out empty fields", () => {
    expect(formRefusal({ status: 422, code: "email_taken", message: "Taken", fields: {} }, { values: { email: "a" } })).toMatchObject({
      data: { values: { email: "a" }, code: "email_taken", message: "Taken" },
      init: { status: 422 },
    });
    expect(formRefusal({ status: 400, code: "c", message: "m" }).data).toEqual({ code: "c", message: "m" });
  });
});
