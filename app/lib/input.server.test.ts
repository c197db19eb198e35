import { describe, expect, it } from "vitest";
import { AppError } from "./errors";
import { defineMessages } from "./i18n";
import { InputError, readInput } from "./input.server";
import { z } from "./zod";

/** A route's own refusals, as the uploads route names its "10MBまで" and "no file". */
const routeMessages = defineMessages({ ja: { big: "大きすぎます", none: "ファイルがありません" }, en: { big: "Too big", none: "No file" } });
class RouteError extends AppError<"too_large" | "no_file"> {
  constructor(code: "too_large" | "no_file") {
    super(routeMessages, { too_large: [413, "big"], no_file: [400, "none"] }, code);
  }
}

const AnyForm = z.instanceof(FormData);

/** A multipart request as a browser sends it (the web's own encoder), optionally as a chunked stream. */
async function multipart(form: FormData, path = "/api/admin/uploads", options: { chunked?: boolean } = {}): Promise<Request> {
  const encoded = new Response(form);
  const type = encoded.headers.get("content-type")!;
  const bytes = new Uint8Array(await encoded.arrayBuffer());
  const body = options.chunked
    ? new ReadableStream<Uint8Array>({
        start(controller) {
          // Small uneven pieces: a boundary and a header fall across chunk edges.
          for (let at = 0; at < bytes.length; at += 997) controller.enqueue(bytes.slice(at, at + 997));
          controller.close();
        },
      })
    : bytes;
  return new Request(`http://localhost${path}`, { method: "POST", headers: { "content-type": type }, body, duplex: "half" } as RequestInit);
}

const readForm = (request: Request) => readInput(request, AnyForm, { fromForm: (form) => form });

describe("readInput: multipart, parsed while it streams", () => {
  it("gives the same fields and files as the web's form parser, streamed or not", async () => {
    const photo = new Uint8Array(300_000).map((_, i) => (i * 31) % 256);
    const sent = new FormData();
    sent.append("title", "ピカチュウex デッキ");
    sent.append("tag", "a");
    sent.append("tag", "b");
    sent.append("file", new File([photo], "写真.jpg", { type: "image/jpeg" }));
    sent.append("empty", new File([], "", { type: "application/octet-stream" }));
    for (const chunked of [false, true]) {
      const form = await readForm(await multipart(sent, "/api/admin/uploads", { chunked }));
      expect(form.get("title")).toBe("ピカチュウex デッキ");
      expect(form.getAll("tag")).toEqual(["a", "b"]);
      const file = form.get("file") as File;
      expect(file).toBeInstanceOf(File);
      expect(file.name).toBe("写真.jpg");
      expect(file.type).toBe("image/jpeg");
      expect(new Uint8Array(await file.arrayBuffer())).toEqual(photo);
      expect((form.get("empty") as File).size).toBe(0);
    }
  });

  it("keeps a long text field whole (no parser limit of its own below the body limit)", async () => {
    const sent = new FormData();
    const text = "雷".repeat(400_000); // 1.2 MB of UTF-8
    sent.append("body", text);
    const form = await readForm(await multipart(sent, "/api/admin/uploads"));
    expect(form.get("body")).toBe(text);
  });

  it("answers 400 unreadable for broken framing", async () => {
    const request = new Request("http://localhost/api/admin/uploads", {
      method: "POST",
      headers: { "content-type": "multipart/form-data; boundary=abc" },
      body: '--abc\r\nContent-Disposition: form-data; name="file"; filename="a.jpg"\r\n\r\nno closing boundary',
    });
    const error = await readForm(request).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).code).toBe("unreadable");
  });

  it("answers 413 (or the route's own refusal) once a streamed body passes the path's limit", async () => {
    const sent = new FormData();
    sent.append("file", new File([new Uint8Array(600 * 1024)], "a.jpg", { type: "image/jpeg" }));
    // The default limit (256 KB) applies to a path without its own entry.
    const error = await readForm(await multipart(sent, "/api/elsewhere", { chunked: true })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).code).toBe("too_large");
    const own = await readInput(await multipart(sent, "/api/elsewhere", { chunked: true }), AnyForm, {
      fromForm: (form) => form,
      tooLarge: () => new RouteError("too_large"),
    }).catch((e: unknown) => e);
    expect(own).toBeInstanceOf(RouteError);
  });

  it("answers a body kind the route does not take with the route's own refusal when it names one", async () => {
    const json = () => new Request("http://localhost/api/admin/uploads", { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    const generic = await readInput(json(), AnyForm, { accept: ["multipart"] }).catch((e: unknown) => e);
    expect((generic as InputError).code).toBe("unreadable");
    const own = await readInput(json(), AnyForm, { accept: ["multipart"], notAccepted: () => new RouteError("no_file") }).catch((e: unknown) => e);
    expect(own).toBeInstanceOf(RouteError);
    expect((own as RouteError).code).toBe("no_file");
  });
});

describe("readInput: repeats and a client gone", () => {
  it("keeps every value of a repeated field, in order", async () => {
    const query = Array.from({ length: 5000 }, (_, i) => `a=${i}`).join("&");
    const request = new Request(`http://localhost/api/articles?${query}`);
    const value = await readInput(request, z.object({ a: z.array(z.string()) }));
    expect(value.a).toHaveLength(5000);
    expect(value.a.slice(0, 3)).toEqual(["0", "1", "2"]);
    expect(value.a.at(-1)).toBe("4999");
  });

  it("reads a data request's query without React Router's _routes, and a form post to /login.data against /login's limit", async () => {
    const strict = z.strictObject({ q: z.string() });
    expect(await readInput(new Request("http://localhost/articles.data?_routes=routes%2Farticles&q=x"), strict)).toEqual({ q: "x" });
    const big = new Request("http://localhost/login.data", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: `email=${"a".repeat(20 * 1024)}` });
    const error = await readInput(big, z.object({ email: z.string() })).catch((e: unknown) => e);
    expect((error as InputError).code).toBe("too_large");
  });

  it("answers 400 unreadable when the body stream fails part-way (the client went away)", async () => {
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(new TextEncoder().encode("--x\r\n"));
        controller.error(Object.assign(new Error("aborted"), { code: "ECONNRESET" }));
      },
    });
    const request = new Request("http://localhost/api/admin/uploads", { method: "POST", headers: { "content-type": "multipart/form-data; boundary=x" }, body, duplex: "half" } as RequestInit);
    const error = await readForm(request).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).code).toBe("unreadable");
    expect((error as InputError).status).toBe(400);
  });
});

