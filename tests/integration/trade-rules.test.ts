import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import type { AppLoadContext } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tradeOffers, tradeRuleChanges, users } from "#app/db/schema/index.ts";
import { seedCatalogue } from "#app/features/cards/catalogue.server.ts";
import { listBoard } from "#app/features/trades/board.server.ts";
import { listMatches } from "#app/features/trades/matches.server.ts";
import { createOffer } from "#app/features/trades/offers.server.ts";
import { cardTradeabilityAt } from "#app/features/trades/trade-rules.ts";
import { TradeRuleError } from "#app/features/trades/trade-rules-errors.ts";
import { TradeRuleChangeSchema, tradeRuleFieldErrors } from "#app/features/trades/trade-rules.schema.ts";
import { addTradeRuleChange, cardTradeability, offersClosedByRules } from "#app/features/trades/trade-rules.server.ts";
import { OfferInputSchema } from "#app/features/trades/trades.schema.ts";
import { loadEnv } from "#app/lib/env.server.ts";
import { action as rulesApi } from "#app/routes/api.admin.trade-rules.ts";
import { loader as rulesPageLoader } from "#app/routes/trade-rules.tsx";
import { loader as newOfferLoader } from "#app/routes/trades.new.tsx";
import { createSessionCookie } from "#tests/support/chat-factories.ts";
import { catalogueCards, createUser } from "#tests/support/factories.ts";
import { createTestDatabase, type TestDatabase } from "#tests/support/test-db.ts";

const SECRET = randomBytes(32).toString("base64url");
let database: TestDatabase;
let db: TestDatabase["db"];
let context: AppLoadContext;
type Card = { id: string; name: string; rarity: string };
let closedPack: Card[]; // ◆◆ only in the pack the admin closes
let elsewhere: Card[]; // ◆◆ only in another pack
let immersive: Card[]; // ☆☆☆: not tradeable by default

beforeAll(async () => {
  database = await createTestDatabase();
  db = database.db;
  await seedCatalogue(db);
  closedPack = await catalogueCards(db, "◆◆", 2, { onlyPack: "pikachu" });
  elsewhere = await catalogueCards(db, "◆◆", 2, { onlyPack: "mewtwo" });
  // ☆☆☆ cards of packs the test leaves open.
  immersive = (await catalogueCards(db, "☆☆☆", 12)).filter((c) => !c.id.startsWith("A1-")).slice(0, 2);
  if (immersive.length < 2) throw new Error("the catalogue has fewer than two ☆☆☆ cards outside A1");
  const env = loadEnv({ DATA_DIR: mkdtempSync(path.join(tmpdir(), "torepoke-trade-rules-")), BETTER_AUTH_SECRET: SECRET, SITE_URL: "http://127.0.0.1:3000", LOG_LEVEL: "silent" });
  context = { db, env, cspNonce: "test" } as AppLoadContext;
});
afterAll(async () => {
  await database?.close();
});

const offer = (give: Card[], want: Card[]) => OfferInputSchema.parse({ give: give.map((c) => ({ cardId: c.id, count: 1 })), want: want.map((c) => ({ cardId: c.id, count: 1 })), comment: "" });
/** A Japan-time `YYYY-MM-DDTHH:mm` as the admin form sends it, `minutes` from now. */
const jst = (minutes: number) => new Date(Date.now() + minutes * 60_000 + 9 * 3600_000).toISOString().slice(0, 16);
const change = (input: Record<string, unknown>) => TradeRuleChangeSchema.parse(input);
type Args<F extends (...args: never[]) => unknown> = Parameters<F>[0];
/** The route's answer, whether it returned it or threw it (a 401/403 guard throws). */
const answer = (run: () => Promise<unknown>): Promise<Response> =>
  run().then(
    (value) => value as Response,
    (thrown: unknown) => {
      if (thrown instanceof Response) return thrown;
      throw thrown;
    },
  );
const args = <F extends (...a: never[]) => unknown>(request: Request) => ({ request, params: {}, context }) as unknown as Args<F>;

describe("trade rules as data: an admin closes a set until a date and opens a rarity from a date", () => {
  it("the server gate, the form's rules, マッチ, the board and the rules page all follow", async () => {
    const admin = await createUser(db);
    const owner = await createUser(db);
    const seeker = await createUser(db);
    // Before any change: ☆☆☆ is refused, the pikachu pack is open.
    await expect(createOffer(db, owner.id, offer([immersive[0]], [immersive[1]]))).rejects.toMatchObject({ code: "not_tradeable" });
    const early = await createOffer(db, owner.id, offer([closedPack[0]], [closedPack[1]]));
    await createOffer(db, seeker.id, offer([closedPack[1]], [closedPack[0]]));
    expect((await listMatches(db, seeker.id)).map((m) => m.id)).toContain(early.id);

    // The pack closes from a minute ago until a set date; ☆☆☆ opens from a minute ago; the crown is announced for later.
    const reopens = "2099-04-01T10:00";
    await addTradeRuleChange(db, change({ scope: "pack", target: "pikachu", tradeable: false, effectiveAt: jst(-1), until: reopens, note: "新しいパックはしばらくトレード対象外" }), admin.id);
    await addTradeRuleChange(db, change({ scope: "rarity", target: "☆☆☆", tradeable: true, effectiveAt: jst(-1), note: "テスト用の変更" }), admin.id);
    await addTradeRuleChange(db, change({ scope: "rarity", target: "👑", tradeable: true, effectiveAt: "2099-01-01T00:00", note: "予定" }), admin.id);

    // Server gate: the closed pack is refused with its reopening date (Japan time); ☆☆☆ now passes.
    const refused = await createOffer(db, seeker.id, offer([closedPack[0]], [closedPack[1]])).then(
      () => null,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(TradeRuleError);
    expect((refused as TradeRuleError).status).toBe(400);
    expect((refused as TradeRuleError).text("ja")).toBe(`${closedPack[0].name}は2099/04/01 10:00までトレードできません`);
    await expect(createOffer(db, owner.id, offer([immersive[0]], [immersive[1]]))).resolves.toMatchObject({ id: expect.any(String) });
    await expect(createOffer(db, owner.id, offer([elsewhere[0]], [elsewhere[1]]))).resolves.toMatchObject({ id: expect.any(String) });

    // The form reads the same rules, evaluated at the server's time.
    const form = (await newOfferLoader(args<typeof newOfferLoader>(new Request("http://127.0.0.1:3000/trades/new", { headers: { cookie: await createSessionCookie(db, owner.id, SECRET) } })))) as {
      rules: Parameters<typeof cardTradeabilityAt>[0];
      now: string;
    };
    expect(cardTradeabilityAt(form.rules, { rarity: "◆◆", packIds: ["pikachu"] }, form.now)).toMatchObject({ tradeable: false, scope: "pack", until: "2099-04-01T01:00:00.000Z" });
    expect(cardTradeabilityAt(form.rules, { rarity: "☆☆☆", packIds: [] }, form.now)).toEqual({ tradeable: true });
    expect(cardTradeabilityAt(form.rules, { rarity: "👑", packIds: [] }, form.now).tradeable).toBe(false);
    // …and at the time of a trade later on, the same module answers differently.
    expect(cardTradeabilityAt(form.rules, { rarity: "◆◆", packIds: ["pikachu"] }, "2099-04-01T01:00:00.000Z")).toEqual({ tradeable: true });
    expect(cardTradeabilityAt(form.rules, { rarity: "👑", packIds: [] }, "2099-01-01T00:00:00+09:00")).toEqual({ tradeable: true });

    // The early offer is not deleted: it stays on the board, marked, and leaves マッチ.
    const [row] = await db.select({ status: tradeOffers.status }).from(tradeOffers).where(eq(tradeOffers.id, early.id));
    expect(row.status).toBe("open");
    const board = await listBoard(db, { filters: { give: closedPack[0].id } });
    expect(board.offers.map((o) => o.id)).toContain(early.id);
    expect((await offersClosedByRules(db, board.offers)).has(early.id)).toBe(true);
    expect((await listMatches(db, seeker.id)).map((m) => m.id)).not.toContain(early.id);
    // The public function other features call.
    const states = await cardTradeability(db, [closedPack[0].id, immersive[0].id]);
    expect(states.get(closedPack[0].id)).toMatchObject({ tradeable: false, scope: "pack", target: "pikachu" });
    expect(states.get(immersive[0].id)).toEqual({ tradeable: true });

    // The rules page lists both changes and the announced one.
    const page = await rulesPageLoader(args<typeof rulesPageLoader>(new Request("http://127.0.0.1:3000/trade-rules")));
    expect(page.rules.changes.map((c) => `${c.scope}:${c.target}:${c.tradeable}`)).toEqual([
      // The Shining High pack's exclusion, in the data since migration 0025.
      "pack:shining-high:false",
      "pack:pikachu:false",
      "rarity:☆☆☆:true",
      "rarity:👑:true",
      "pack:pikachu:true",
    ]);
    expect(page.rules.changes.every((c) => c.note.length > 0)).toBe(true);
    expect(page.packs.some((p) => p.id === "pikachu")).toBe(true);
  });
});

describe("POST /api/admin/trade-rules", () => {
  const post = (cookie: string, body: unknown) =>
    new Request("http://127.0.0.1:3000/api/admin/trade-rules", { method: "POST", headers: { cookie, "content-type": "application/json", origin: "http://127.0.0.1:3000" }, body: JSON.stringify(body) });

  it("takes a change from an admin, refuses others, and names the field of bad input", async () => {
    const admin = await createUser(db);
    await db.update(users).set({ role: "admin" }).where(eq(users.id, admin.id));
    const player = await createUser(db);
    const adminCookie = await createSessionCookie(db, admin.id, SECRET);
    const body = { scope: "rarity", target: "PROMO", tradeable: false, effectiveAt: "2030-01-01T00:00", note: "プロモは対象外のまま" };

    const playerCookie = await createSessionCookie(db, player.id, SECRET);
    const forbidden = await answer(() => rulesApi(args<typeof rulesApi>(post(playerCookie, body))));
    expect(forbidden.status).toBe(403);

    const created = (await rulesApi(args<typeof rulesApi>(post(adminCookie, body)))) as Response;
    expect(created.status).toBe(201);
    expect(((await created.json()) as { changes: { target: string; effectiveAt: string }[] }).changes).toEqual([
      expect.objectContaining({ target: "PROMO", effectiveAt: "2029-12-31T15:00:00.000Z" }),
    ]);

    const noNote = (await rulesApi(args<typeof rulesApi>(post(adminCookie, { ...body, note: " " })))) as Response;
    expect(noNote.status).toBe(400);
    expect(await noNote.json()).toMatchObject({ code: "invalid_request", fields: { note: "メモを入力してください" } });

    const untilWhenOpen = (await rulesApi(args<typeof rulesApi>(post(adminCookie, { ...body, tradeable: true, until: "2031-01-01T00:00" })))) as Response;
    expect(untilWhenOpen.status).toBe(400);
    expect(await untilWhenOpen.json()).toMatchObject({ fields: { until: "「この日時まで」は「できない」のときだけ指定できます" } });

    const unknown = (await rulesApi(args<typeof rulesApi>(post(adminCookie, { ...body, scope: "pack", target: "no-such-pack" })))) as Response;
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toMatchObject({ code: "unknown_target", error: "そのレアリティまたはパックはありません" });
  });
});


describe("POST /api/admin/trade-rules: impossible dates and times, and control characters in the note", () => {
  const post = (cookie: string, body: unknown) =>
    new Request("http://127.0.0.1:3000/api/admin/trade-rules", { method: "POST", headers: { cookie, "content-type": "application/json", origin: "http://127.0.0.1:3000" }, body: JSON.stringify(body) });
  const body = { scope: "rarity", target: "PROMO", tradeable: false, effectiveAt: "2030-01-01T00:00", note: "境界の確認" };
  const effectiveAtInvalid = "適用日時は2000年から2100年までの実在する日時で入力してください";
  const untilInvalid = "「この日時まで」は2000年から2100年までの実在する日時で入力してください";
  const noteControl = "メモに使用できない文字が含まれています";
  const stored = async () => (await db.select({ id: tradeRuleChanges.id }).from(tradeRuleChanges)).length;

  it.each([
    ["year 0000", { effectiveAt: "0000-01-01T00:00" }, "effectiveAt", effectiveAtInvalid],
    ["30 February (no rolling over to March)", { effectiveAt: "2026-02-30T10:00" }, "effectiveAt", effectiveAtInvalid],
    ["24:00 (no rolling over to the next day)", { effectiveAt: "2026-03-01T24:00" }, "effectiveAt", effectiveAtInvalid],
    ["minute 60", { effectiveAt: "2026-03-01T23:60" }, "effectiveAt", effectiveAtInvalid],
    ["a year before 2000", { effectiveAt: "1999-12-31T23:59" }, "effectiveAt", effectiveAtInvalid],
    ["a year after 2100", { effectiveAt: "2101-01-01T00:00" }, "effectiveAt", effectiveAtInvalid],
    ["an until of 30 February", { until: "2031-02-30T00:00" }, "until", untilInvalid],
    ["an until at 24:00", { until: "2031-01-01T24:00" }, "until", untilInvalid],
    ["an until in year 0000", { until: "0000-01-01T00:00" }, "until", untilInvalid],
    ["a NUL in the note", { note: "メモ\u0000です" }, "note", noteControl],
    ["a line break in the note", { note: "一行目\n二行目" }, "note", noteControl],
    ["an escape character in the note", { note: "\u001b[31m赤" }, "note", noteControl],
  ])("refuses %s with 400 at its field, and stores nothing", async (_name, change, field, message) => {
    const admin = await createUser(db, { role: "admin" });
    const cookie = await createSessionCookie(db, admin.id, SECRET);
    const before = await stored();
    const refused = await answer(() => rulesApi(args<typeof rulesApi>(post(cookie, { ...body, ...change }))));
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({ error: message, code: "invalid_request", fields: { [field]: message } });
    expect(await stored()).toBe(before);
  });

  it("still takes the edges: the first and last minute of 2000–2100, 29 February of a leap year, 23:59", async () => {
    const admin = await createUser(db, { role: "admin" });
    const cookie = await createSessionCookie(db, admin.id, SECRET);
    const cases = [
      [{ effectiveAt: "2000-01-01T00:00" }, ["1999-12-31T15:00:00.000Z"]],
      [{ effectiveAt: "2028-02-29T23:59", until: "2100-12-31T23:59" }, ["2028-02-29T14:59:00.000Z", "2100-12-31T14:59:00.000Z"]],
      [{ effectiveAt: "2026-03-01T00:00", note: "  前後の空白は落とす  " }, ["2026-02-28T15:00:00.000Z"]],
    ] as const;
    for (const [change, times] of cases) {
      const created = (await rulesApi(args<typeof rulesApi>(post(cookie, { ...body, ...change })))) as Response;
      expect(created.status).toBe(201);
      const { changes } = (await created.json()) as { changes: { id: string; effectiveAt: string; note: string }[] };
      expect(changes.map((c) => c.effectiveAt)).toEqual(times);
      const rows = await db.select({ effectiveAt: tradeRuleChanges.effectiveAt, note: tradeRuleChanges.note }).from(tradeRuleChanges).where(eq(tradeRuleChanges.id, changes[0].id));
      expect(rows.map((r) => [new Date(r.effectiveAt).toISOString(), r.note])).toEqual([[times[0], "note" in change ? change.note.trim() : body.note]]);
    }
  });

  it("the admin form's own check gives the same message at the field, before anything is sent", () => {
    const checked = TradeRuleChangeSchema.safeParse({ ...body, effectiveAt: "2026-02-30T10:00", note: "a\u0000" });
    expect(checked.success).toBe(false);
    expect(checked.error && tradeRuleFieldErrors(checked.error)).toEqual({ effectiveAt: "errEffectiveAtInvalid", note: "errNoteControl" });
  });
});
