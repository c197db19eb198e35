// `npm run fuzz`: every API and form action of the built app, fed wrong types, huge and deeply
// nested bodies, NUL bytes, invalid UTF-8 and bad ids, signed out, signed in and as an admin,
// against a server started here on 127.0.0.1 — on PGlite, then on a fresh PostgreSQL database
// when one answers. Bounded (a fixed list of cases, one request at a time); prints the answers per
// route by status class and every 5xx; exits 1 when any answer is a 5xx or a JSON refusal is not
// in the one shape {error, code, fields?}. `npm run build` first.
import { randomBytes } from "node:crypto";
import { request as httpRequest } from "node:http";
import { startServer, type RunningServer } from "#tests/support/server.ts";
import { verifyAddressFromMail } from "#tests/support/verified-account.ts";
import { createBenchDatabase } from "./support";

type Who = "anonymous" | "user" | "admin";
type Case = { route: string; method: string; path: string; who: Who; body?: string | Buffer; type?: string; headers?: Record<string, string> };
type Tally = { total: number; s2: number; s3: number; s4: number; s5: number; failed: number };

const NASTY_STRINGS = [
  "\u0000",
  "a\u0000b",
  "\ud800",
  "x".repeat(10_000),
  "' OR 1=1 --",
  "<script>alert(1)</script>",
  "../../../../etc/passwd",
  "-1",
  "0",
  "99999999999999999999999",
  "1e309",
  "NaN",
  "",
  " ",
  "🃏👑",
  "00000000-0000-0000-0000-000000000000",
  "%00",
];
const NASTY_VALUES: unknown[] = [null, true, 0, -1, 1.5, 2 ** 53, [], {}, [[[]]], { a: { b: {} } }, ...NASTY_STRINGS];
const BAD_IDS = ["%00", "%FF", "%C3%28", "a%00b", "x".repeat(3000), "-1", "0", "99999999999999999999", "'%20OR%201=1--", "00000000-0000-0000-0000-000000000000", "%2e%2e%2f%2e%2e", "null", "%F0%9F%83%8F"];
const QUERY_VALUES = ["%00", "%FF", "%C3%28", "x".repeat(3000), "-1", "0", "99999999999999999999", "1e309", "NaN", "abc", "%27%22%3C", "[]", "%E2%97%86%E2%97%86"];

function deepJson(depth: number): string {
  return "[".repeat(depth) + "]".repeat(depth);
}

/** The bodies a JSON endpoint gets: its own shape with every field made wrong, and the generic ones. */
function jsonBodies(shape: Record<string, unknown>): string[] {
  const bodies = ["", "not json", "{", "null", "[]", "1", '"str"', deepJson(50_000), JSON.stringify({ a: "x".repeat(300 * 1024) }), JSON.stringify(shape)];
  // Deeply nested objects, written out (JSON.stringify itself would overflow its stack).
  bodies.push('{"a":'.repeat(20_000) + "{}" + "}".repeat(20_000));
  for (const field of Object.keys(shape)) {
    for (const value of NASTY_VALUES) bodies.push(JSON.stringify({ ...shape, [field]: value }));
  }
  return bodies;
}

function formBodies(fields: Record<string, string>): string[] {
  const bodies = ["", "%", "a=%FF", "a=%00", "&&&", "x".repeat(300 * 1024)];
  bodies.push(new URLSearchParams(fields).toString());
  for (const field of Object.keys(fields)) {
    for (const value of NASTY_STRINGS) bodies.push(new URLSearchParams({ ...fields, [field]: value }).toString());
    bodies.push(`${new URLSearchParams(fields).toString()}&${field}=%00&${field}=%FF`);
  }
  return bodies;
}

function multipartBodies(): { body: Buffer; type: string }[] {
  const boundary = "fuzzboundary";
  const part = (name: string, value: string | Buffer, filename?: string) =>
    Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"${filename ? `; filename="${filename}"` : ""}\r\n${filename ? "Content-Type: image/png\r\n" : ""}\r\n`),
      Buffer.isBuffer(value) ? value : Buffer.from(value),
      Buffer.from("\r\n"),
    ]);
  const end = Buffer.from(`--${boundary}--\r\n`);
  const type = `multipart/form-data; boundary=${boundary}`;
  return [
    { body: Buffer.from("garbage"), type },
    { body: Buffer.from("garbage"), type: "multipart/form-data" },
    { body: Buffer.concat([part("file", "not an image", "a.png"), end]), type },
    { body: Buffer.concat([part("file", Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]), "b.png"), part("folder", "\u0000"), end]), type },
    { body: Buffer.concat([part("folder", "../../etc"), part("file", randomBytes(2000), "c.png"), end]), type },
    { body: Buffer.concat([part("file", "x", "%00.png"), end]), type },
    { body: Buffer.concat([part("nofile", "x"), end]), type },
  ];
}

/**
 * The one refusal shape of every JSON answer of 4xx/5xx (app/lib/api.server.ts):
 * `{"error": text, "code": snake_case, "fields"?: {field: text}}` and nothing else. Better Auth's own
 * endpoints (/api/auth/*) answer in their library's shape and are not ours to check.
 */
function refusalShapeProblem(path: string, status: number, type: string | undefined, text: string): string | null {
  if (status < 400 || !/json/i.test(type ?? "") || path.startsWith("/api/auth/")) return null;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return "not JSON";
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) return "not an object";
  const { error, code, fields, ...rest } = body as Record<string, unknown>;
  if (typeof error !== "string" || !error) return "no error text";
  if (typeof code !== "string" || !/^[a-z][a-z0-9_]*$/.test(code)) return "no snake_case code";
  if (fields !== undefined && (typeof fields !== "object" || fields === null || Object.values(fields).some((v) => typeof v !== "string"))) return "fields not {field: text}";
  if (Object.keys(rest).length) return `extra keys ${Object.keys(rest).join(",")}`;
  return null;
}

type Answer = { status: number; shape: string | null; refusal: boolean };

/** Sends one request; bodies go out with a Content-Length (or chunked when `chunked`). */
function send(base: string, c: Case, cookie: string | undefined): Promise<Answer> {
  return new Promise((resolve) => {
    const body = c.body === undefined ? undefined : Buffer.isBuffer(c.body) ? c.body : Buffer.from(c.body);
    const headers: Record<string, string> = { origin: base, accept: c.path.startsWith("/api/") ? "application/json" : "text/html", ...c.headers };
    if (cookie) headers.cookie = cookie;
    if (body) {
      headers["content-type"] = c.type ?? "application/json";
      headers["content-length"] = String(body.length);
    }
    // A fresh connection per case: an early answer on a reused keep-alive socket must not be
    // mistaken for the next case failing.
    const req = httpRequest(`${base}${c.path}`, { method: c.method, headers, timeout: 30_000, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => {
        const status = res.statusCode ?? 0;
        const type = res.headers["content-type"];
        const refusal = status >= 400 && /json/i.test(type ?? "") && !c.path.startsWith("/api/auth/");
        resolve({ status, refusal, shape: refusalShapeProblem(c.path, status, type, Buffer.concat(chunks).toString("utf8")) });
      });
      res.on("error", () => resolve({ status: res.statusCode ?? -1, shape: null, refusal: false }));
    });
    req.on("timeout", () => req.destroy(new Error("timeout")));
    // A server that answers early and closes (body limits) is fine: the status already arrived.
    req.on("error", () => resolve({ status: -1, shape: null, refusal: false }));
    req.end(body);
  });
}

async function json(base: string, path: string, method: string, body: unknown, cookie?: string): Promise<{ status: number; body: unknown; cookie?: string }> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { origin: base, "content-type": "application/json", ...(cookie ? { cookie } : {}) },
    body: JSON.stringify(body),
  });
  const set = res.headers.getSetCookie().find((c) => c.startsWith("torepoke.session_token="));
  return { status: res.status, body: await res.json().catch(() => null), cookie: set?.split(";")[0] };
}

async function session(base: string, email: string, name: string): Promise<string> {
  const up = await json(base, "/api/auth/sign-up/email", "POST", { email, password: `fuzz-${randomBytes(6).toString("hex")}`, name });
  if (!up.cookie) throw new Error(`sign-up failed: ${up.status} ${JSON.stringify(up.body)}`);
  await fetch(`${base}/profile`, {
    method: "POST",
    headers: { origin: base, cookie: up.cookie, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ displayName: name, friendId: String(1e15 + Math.floor(Math.random() * 8e15)) }),
    redirect: "manual",
  });
  return up.cookie;
}

function cases(ids: { offerId: string; roomId: string; cardId: string; packId: string; userId: string }): Case[] {
  const all: Case[] = [];
  const who: Who[] = ["anonymous", "user", "admin"];
  const add = (route: string, method: string, path: string, w: Who[], body?: string | Buffer, type?: string) => {
    for (const x of w) all.push({ route, method, path, who: x, body, type });
  };
  // Pages and read APIs: bad path ids and bad query values.
  const reads: [string, string, string[]][] = [
    ["/", "/", ["view", "page"]],
    ["/cards", "/cards", ["pack", "q", "rarity", "excludeRare", "cursor", "limit"]],
    ["/cards/:cardId", `/cards/${ids.cardId}`, ["x"]],
    ["/trades", "/trades", ["give", "want", "pack", "rarity", "cursor", "view", "page"]],
    ["/trades/:id", `/trades/${ids.offerId}`, ["edit", "done"]],
    ["/trades/new", "/trades/new", ["x"]],
    ["/profile", "/profile", ["need", "redirectTo", "unblocked"]],
    ["/chat/:roomId", `/chat/${ids.roomId}`, ["x"]],
    ["/articles", "/articles", ["category", "cursor"]],
    ["/deck-recipes", "/deck-recipes", ["tier", "energy", "cursor"]],
    ["/admin", "/admin", ["tab"]],
    ["/login", "/login", ["redirectTo"]],
    ["/signup", "/signup", ["redirectTo"]],
    ["/sitemap.xml", "/sitemap.xml", ["x"]],
    ["/api/cards", "/api/cards", ["pack", "q", "rarity", "excludeRare", "cursor", "limit"]],
    ["/api/cards/search", "/api/cards/search", ["q", "limit"]],
    ["/api/cards/:packId/:cardId", `/api/cards/${ids.packId}/${ids.cardId}`, ["x"]],
    ["/api/trades", "/api/trades", ["give", "want", "pack", "rarity", "cursor", "limit"]],
    ["/api/trades/matches", "/api/trades/matches", ["page"]],
    ["/api/trades/:id", `/api/trades/${ids.offerId}`, ["x"]],
    ["/api/chat/rooms/:roomId/messages", `/api/chat/rooms/${ids.roomId}/messages`, ["afterSeq", "beforeSeq", "limit"]],
    ["/api/admin/settings", "/api/admin/settings", ["x"]],
    ["/api/admin/uploads", "/api/admin/uploads", ["limit", "cursor"]],
    ["/api/articles", "/api/articles", ["category", "cursor", "limit"]],
    ["/api/decks", "/api/decks", ["tier", "energy", "cursor", "limit"]],
    ["/api/admin/decks/cards", "/api/admin/decks/cards", ["q", "pack", "limit"]],
    ["/articles/feed.xml", "/articles/feed.xml", ["x"]],
    ["/account/not-me", "/account/not-me", ["token"]],
    ["/reset-password", "/reset-password", ["token"]],
    ["/trade-rules", "/trade-rules", ["x"]],
    ["/api/admin/trade-rules", "/api/admin/trade-rules", ["x"]],
  ];
  for (const [route, path, params] of reads) {
    add(route, "GET", path, who);
    add(`${route} (.data)`, "GET", path === "/" ? "/_.data" : `${path}.data`, ["user"]);
    for (const param of params) for (const value of QUERY_VALUES) add(route, "GET", `${path}?${param}=${value}`, ["anonymous", "user"]);
  }
  const idRoutes: [string, (id: string) => string][] = [
    ["/cards/:cardId", (id) => `/cards/${id}`],
    ["/trades/:id", (id) => `/trades/${id}`],
    ["/chat/:roomId", (id) => `/chat/${id}`],
    ["/articles/:id", (id) => `/articles/${id}`],
    ["/deck-recipes/:slug", (id) => `/deck-recipes/${id}`],
    ["/admin/deck-recipes/edit/:id", (id) => `/admin/deck-recipes/edit/${id}`],
    ["/sitemaps/:part", (id) => `/sitemaps/${id}`],
    ["/api/cards/:packId/:cardId", (id) => `/api/cards/${id}/${id}`],
    ["/api/trades/:id", (id) => `/api/trades/${id}`],
    ["/api/chat/rooms/:roomId/messages", (id) => `/api/chat/rooms/${id}/messages`],
    ["/api/articles/:ref", (id) => `/api/articles/${id}`],
    ["/api/decks/:slug", (id) => `/api/decks/${id}`],
  ];
  for (const [route, path] of idRoutes) for (const id of BAD_IDS) add(route, "GET", path(id), ["anonymous", "user", "admin"]);

  // JSON APIs.
  const offerShape = { give: [{ cardId: ids.cardId, count: 1 }], want: [{ cardId: ids.cardId, count: 1 }], comment: "fuzz" };
  for (const body of jsonBodies(offerShape)) add("POST /api/trades", "POST", "/api/trades", ["anonymous", "user"], body);
  for (const body of jsonBodies({ action: "report", reason: "fuzz", give: offerShape.give, want: offerShape.want, comment: "c" })) {
    add("POST /api/trades/:id", "POST", `/api/trades/${ids.offerId}`, ["user"], body);
  }
  for (const id of BAD_IDS) add("POST /api/trades/:id", "POST", `/api/trades/${id}`, ["user"], JSON.stringify({ action: "bump" }));
  add("DELETE /api/trades/:id", "DELETE", `/api/trades/${BAD_IDS[0]}`, ["user"]);
  for (const body of jsonBodies({ title: ids.packId, csvData: "name,rarity,imageUrl\nfuzz,◆,\n" })) add("POST /api/admin/cards/import", "POST", "/api/admin/cards/import", ["user", "admin"], body);
  for (const body of jsonBodies({ action: "dismiss" })) add("POST /api/admin/reports/:id", "POST", `/api/admin/reports/00000000-0000-0000-0000-000000000000`, ["admin"], body);
  for (const id of BAD_IDS) add("POST /api/admin/reports/:id", "POST", `/api/admin/reports/${id}`, ["admin"], JSON.stringify({ action: "dismiss" }));
  for (const body of jsonBodies({ metaDescription: "m", seoKeywords: "k", ogTitle: "t", ogDescription: "d", ogImage: "https://example.com/a.png" })) {
    add("PUT /api/admin/settings", "PUT", "/api/admin/settings", ["admin"], body);
  }
  for (const body of jsonBodies({ cards: [ids.cardId], articles: ["x"], decks: ["y"] })) add("POST /api/admin/content/refs", "POST", "/api/admin/content/refs", ["admin"], body);
  for (const body of jsonBodies({ title: "t", content: "c" })) add("POST /api/admin/seo/suggest", "POST", "/api/admin/seo/suggest", ["admin"], body);
  for (const body of jsonBodies({ email: "fuzz@example.com", password: "fuzz-pass-2026", name: "fuzz" })) {
    add("POST /api/auth/sign-up/email", "POST", "/api/auth/sign-up/email", ["anonymous"], body);
    add("POST /api/auth/sign-in/email", "POST", "/api/auth/sign-in/email", ["anonymous"], body);
  }
  // The library's endpoints our pages keep to themselves answer 404 from outside, whatever the body.
  for (const body of jsonBodies({ newEmail: "fuzz-new@example.com", callbackURL: "/", currentPassword: "fuzz-pass-2026", newPassword: "fuzz-pass-2027", token: "x", email: "fuzz@example.com" })) {
    for (const closed of ["/change-email", "/change-password", "/request-password-reset", "/reset-password", "/revoke-sessions", "/update-user", "/verify-password"]) {
      add(`POST /api/auth${closed}`, "POST", `/api/auth${closed}`, ["anonymous", "user"], body);
    }
  }
  for (const value of QUERY_VALUES) {
    add("GET /api/auth/verify-email", "GET", `/api/auth/verify-email?token=${value}&callbackURL=${value}`, ["anonymous"]);
    add("GET /api/auth/list-sessions", "GET", `/api/auth/list-sessions?x=${value}`, ["user"]);
  }
  const rule = { scope: "pack", target: ids.packId, tradeable: true, effectiveAt: "2026-12-10T10:00", until: "2026-12-24T23:59", note: "fuzz" };
  for (const body of jsonBodies(rule)) add("POST /api/admin/trade-rules", "POST", "/api/admin/trade-rules", ["user", "admin"], body);
  for (const when of ["0000-01-01T00:00", "2026-02-30T10:00", "2026-12-10T24:00", "2026-12-10T23:60", "99999-01-01T00:00"]) {
    add("POST /api/admin/trade-rules", "POST", "/api/admin/trade-rules", ["admin"], JSON.stringify({ ...rule, effectiveAt: when, note: "a\u0000b" }));
  }
  const article = { title: "t", content: "c", category: "news", isPublic: false, slug: "fuzz-a", thumbnailUrl: "", keywords: "k", metaDescription: "m" };
  for (const body of jsonBodies(article)) add("POST /api/admin/articles", "POST", "/api/admin/articles", ["user", "admin"], body);
  for (const id of BAD_IDS.slice(0, 6)) {
    add("PATCH /api/admin/articles/:id", "PATCH", `/api/admin/articles/${id}`, ["admin"], JSON.stringify(article));
    add("DELETE /api/admin/articles/:id", "DELETE", `/api/admin/articles/${id}`, ["admin"]);
    add("POST /api/admin/articles/:id/visibility", "POST", `/api/admin/articles/${id}/visibility`, ["admin"], JSON.stringify({ isPublic: true }));
    add("PATCH /api/admin/decks/:id", "PATCH", `/api/admin/decks/${id}`, ["admin"], JSON.stringify({ name: "d" }));
    add("DELETE /api/admin/decks/:id", "DELETE", `/api/admin/decks/${id}`, ["admin"]);
  }
  for (const body of jsonBodies({ isPublic: true })) add("POST /api/admin/articles/:id/visibility", "POST", "/api/admin/articles/00000000-0000-0000-0000-000000000000/visibility", ["admin"], body);
  const deck = {
    name: "d", tier: 1, category: "deck-recipe", description: "x", energyTypes: ["grass"], eyecatchUrl: null, isPublic: false, slug: "fuzz-d",
    cards: [{ cardId: ids.cardId, packId: ids.packId, count: 2 }], relatedDeckIds: [], keywords: "k", metaDescription: "m",
  };
  for (const body of jsonBodies(deck)) add("POST /api/admin/decks", "POST", "/api/admin/decks", ["user", "admin"], body);
  for (const body of jsonBodies({ text: "ピカチュウ ×2" })) add("POST /api/admin/decks/import", "POST", "/api/admin/decks/import", ["admin"], body);
  for (const { body, type } of multipartBodies()) add("POST /api/admin/uploads", "POST", "/api/admin/uploads", ["user", "admin"], body, type);

  // Page form actions.
  const FORM = "application/x-www-form-urlencoded";
  const forms: [string, string, Record<string, string>, Who[]][] = [
    ["/login", "/login", { email: "fuzz@example.com", password: "fuzz-pass-2026", redirectTo: "/" }, ["anonymous"]],
    ["/signup", "/signup", { displayName: "fuzz", email: "fuzz2@example.com", password: "fuzz-pass-2026", redirectTo: "/" }, ["anonymous"]],
    ["/language", "/language", { lang: "en", redirectTo: "/" }, ["anonymous", "user"]],
    ["/profile", "/profile", { displayName: "ふぁず", friendId: "1234567812345678", redirectTo: "/trades" }, ["anonymous", "user"]],
    ["/trades/new", "/trades/new", { give: `${ids.cardId}*1`, want: `${ids.cardId}*1`, comment: "fuzz" }, ["user"]],
    ["/trades/:id", `/trades/${ids.offerId}`, { intent: "report", reason: "fuzz", give: `${ids.cardId}*1`, want: `${ids.cardId}*1`, comment: "c" }, ["user"]],
    ["/profile/blocks/:userId", `/profile/blocks/${ids.userId}`, { x: "1" }, ["user"]],
    ["/admin", "/admin", { intent: "x", title: ids.packId }, ["admin"]],
    ["/profile/account", "/profile/account", { intent: "changeEmail", newEmail: "fuzz-moved@example.com", currentPassword: "not-the-password-1" }, ["anonymous", "user"]],
    ["/forgot-password", "/forgot-password", { email: "fuzz@example.com" }, ["anonymous"]],
    ["/reset-password", "/reset-password", { token: "x", password: "fuzz-pass-2026" }, ["anonymous"]],
    ["/account/not-me", "/account/not-me", { token: "x" }, ["anonymous", "user"]],
  ];
  for (const [route, path, fields, w] of forms) for (const body of formBodies(fields)) add(`POST ${route}`, "POST", path, w, body, FORM);
  for (const id of BAD_IDS) {
    add("POST /trades/:id", "POST", `/trades/${id}`, ["user"], "intent=bump", FORM);
    add("POST /profile/blocks/:userId", "POST", `/profile/blocks/${id}`, ["user"], "x=1", FORM);
  }
  // A form posted as JSON, and JSON posted as a form.
  for (const [route, path] of [["/profile", "/profile"], ["/trades/new", "/trades/new"]]) add(`POST ${route}`, "POST", path, ["user"], '{"a":1}', "application/json");
  add("POST /api/trades", "POST", "/api/trades", ["user"], "give=1", FORM);
  // Log-out last for each: it ends the session.
  add("POST /logout", "POST", "/logout", ["anonymous"], "x=%00", FORM);
  return all;
}

async function run(label: string, env: Record<string, string>): Promise<boolean> {
  const adminEmail = `fuzz-admin-${randomBytes(4).toString("hex")}@example.com`;
  const server: RunningServer = await startServer({ ...env, LOG_LEVEL: "error", ADMIN_EMAILS: adminEmail, AUTH_RATE_LIMIT_MAX: "1000000" });
  try {
    const base = server.url;
    const user = await session(base, `fuzz-${randomBytes(4).toString("hex")}@example.com`, "ふぁずユーザー");
    const admin = await session(base, adminEmail, "ふぁず管理者");
    // ADMIN_EMAILS makes an administrator only once the address is verified (the link mailed at sign-up).
    await verifyAddressFromMail(server, adminEmail);
    const other = await session(base, `fuzz-o-${randomBytes(4).toString("hex")}@example.com`, "ふぁず相手");
    const list = (await (await fetch(`${base}/api/cards?pack=pikachu&rarity=${encodeURIComponent("◆◆◆◆")}&limit=2`)).json()) as { cards: { id: string }[] };
    const [give, want] = list.cards.map((c) => c.id);
    const offer = await json(base, "/api/trades", "POST", { give: [{ cardId: give, count: 1 }], want: [{ cardId: want, count: 1 }], comment: "fuzz" }, other);
    const offerId = (offer.body as { id: string }).id;
    const respond = await json(base, `/api/trades/${offerId}`, "POST", { action: "respond" }, user);
    const roomId = (respond.body as { roomId: string }).roomId;
    const otherId = ((await json(base, "/api/auth/get-session", "GET", undefined, other).catch(() => ({ body: null }))).body as { user?: { id: string } } | null)?.user?.id ?? "nobody";
    const all = cases({ offerId, roomId, cardId: give, packId: "pikachu", userId: otherId });
    const cookies: Record<Who, string | undefined> = { anonymous: undefined, user, admin };
    const tallies = new Map<string, Tally>();
    const fives: string[] = [];
    const shapes: string[] = [];
    let misshapen = 0;
    let refusals = 0;
    const started = Date.now();
    for (const c of all) {
      const { status, shape, refusal } = await send(base, c, cookies[c.who]);
      if (refusal) refusals++;
      if (shape) {
        misshapen++;
        if (shapes.length < 40) shapes.push(`shape: ${shape}: ${status} ${c.method} ${c.path.slice(0, 120)} [${c.who}]`);
      }
      const key = `${c.route} [${c.who}]`;
      const t = tallies.get(key) ?? { total: 0, s2: 0, s3: 0, s4: 0, s5: 0, failed: 0 };
      t.total++;
      if (status >= 500) {
        t.s5++;
        if (fives.length < 40) fives.push(`5xx: ${status} ${c.method} ${c.path.slice(0, 120)} [${c.who}] body=${c.body ? JSON.stringify(String(c.body).slice(0, 100)) : "-"}`);
      } else if (status >= 400) t.s4++;
      else if (status >= 300) t.s3++;
      else if (status >= 200) t.s2++;
      else {
        t.failed++;
        if (fives.length < 40) fives.push(`no answer: ${c.method} ${c.path.slice(0, 120)} [${c.who}] body=${c.body ? JSON.stringify(String(c.body).slice(0, 100)) : "-"}`);
      }
      tallies.set(key, t);
    }
    const sum = [...tallies.values()].reduce((a, t) => ({ total: a.total + t.total, s5: a.s5 + t.s5, failed: a.failed + t.failed }), { total: 0, s5: 0, failed: 0 });
    console.log(`\n${label}: ${sum.total} requests in ${((Date.now() - started) / 1000).toFixed(0)} s, ${sum.s5} answers of 5xx, ${sum.failed} without an answer`);
    console.log("route [who]".padEnd(58), "total".padStart(6), "2xx".padStart(5), "3xx".padStart(5), "4xx".padStart(5), "5xx".padStart(5), "none".padStart(5));
    for (const [key, t] of [...tallies.entries()].sort()) {
      console.log(key.padEnd(58), String(t.total).padStart(6), String(t.s2).padStart(5), String(t.s3).padStart(5), String(t.s4).padStart(5), String(t.s5).padStart(5), String(t.failed).padStart(5));
    }
    for (const f of fives) console.log(`  ${f}`);
    console.log(`JSON refusals: ${refusals}, not in the one shape {error, code, fields?}: ${misshapen}`);
    for (const s of shapes) console.log(`  ${s}`);
    // The server must still be healthy afterwards.
    const health = await fetch(`${base}/healthz`);
    console.log(`after the fuzz: /healthz ${health.status}`);
    return sum.s5 === 0 && sum.failed === 0 && misshapen === 0 && health.ok;
  } finally {
    await server.stop();
  }
}

let ok = await run("PGlite", {});
const pg = process.argv.includes("--pglite-only") ? null : await createBenchDatabase();
if (pg) {
  try {
    ok = (await run("PostgreSQL", { DATABASE_URL: pg.url })) && ok;
  } finally {
    await pg.drop();
  }
} else {
  console.log("PostgreSQL not reachable: PGlite only.");
}
process.exit(ok ? 0 : 1);
