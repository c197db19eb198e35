import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { AppLoadContext } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedCatalogue } from "#app/features/cards/catalogue.server.ts";
import { encodeCursor } from "#app/features/trades/board.server.ts";
import { loadEnv } from "#app/lib/env.server.ts";
import { action as reportAction } from "#app/routes/api.admin.reports.$id.ts";
import { loader as apiBoardLoader } from "#app/routes/api.trades.ts";
import { action as apiOfferAction } from "#app/routes/api.trades.$id.ts";
import { createOffer } from "#app/features/trades/offers.server.ts";
import { saveCollectionSettings, setCardCounts } from "#app/features/collection/collection.server.ts";
import { OfferInputSchema } from "#app/features/trades/trades.schema.ts";
import { action as offerAction } from "#app/routes/trade.tsx";
import { loader as boardLoader } from "#app/routes/trades.tsx";
import { action as newOfferAction } from "#app/routes/trades.new.tsx";
import { loader as offerLoader } from "#app/routes/trade.tsx";
import { action as wantedCardsAction } from "#app/routes/wanted-cards.tsx";
import { MAX_WANTED_CARDS, WANTED_CHANGES_PER_MINUTE, listWantedCards } from "#app/features/notifications/want-list.server.ts";
import { sql } from "drizzle-orm";
import { rowsOf } from "#app/db/sql.server.ts";
import { createSessionCookie } from "#tests/support/chat-factories.ts";
import { catalogueCards, createUser } from "#tests/support/factories.ts";
import { createTestDatabase, type TestDatabase } from "#tests/support/test-db.ts";

const SECRET = randomBytes(32).toString("base64url");
let database: TestDatabase;
let context: AppLoadContext;
beforeAll(async () => {
  database = await createTestDatabase();
  await seedCatalogue(database.db);
  const env = loadEnv({ DATA_DIR: mkdtempSync(path.join(tmpdir(), "torepoke-trade-routes-")), BETTER_AUTH_SECRET: SECRET, SITE_URL: "http://127.0.0.1:3000", LOG_LEVEL: "silent" });
  context = { db: database.db, env, cspNonce: "test" } as AppLoadContext;
});
afterAll(async () => {
  await database?.close();
});

// React Router hands a loader or action more than these three; the trade routes read only them.
type Args<F extends (...args: never[]) => unknown> = Parameters<F>[0];
const args = <F extends (...a: never[]) => unknown>(request: Request, params: Record<string, string> = {}) =>
  ({ request, params, context }) as unknown as Args<F>;
const get = (url: string) => new Request(`http://127.0.0.1:3000${url}`);
const post = (url: string, cookie: string, body: BodyInit, contentType: string) =>
  new Request(`http://127.0.0.1:3000${url}`, { method: "POST", headers: { cookie, "content-type": contentType }, body });

/** What a loader or action threw or returned, as a status and body. */
async function outcome(run: () => Promise<unknown>): Promise<{ status: number; body: unknown }> {
  try {
    const value = await run();
    if (value instanceof Response) return { status: value.status, body: value.headers.get("content-type")?.includes("json") ? await value.json() : null };
    const init = (value as { init?: { status?: number } }).init;
    return { status: init?.status ?? 200, body: (value as { data?: unknown }).data ?? value };
  } catch (thrown) {
    if (thrown instanceof Response) return { status: thrown.status, body: thrown.headers.get("content-type")?.includes("json") ? await thrown.json() : null };
    const init = (thrown as { init?: { status?: number } }).init;
    if (init?.status) return { status: init.status, body: (thrown as { data?: unknown }).data };
    throw thrown;
  }
}

// Month 13 has the cursor's exact shape; only PostgreSQL's ::timestamp cast would notice.
const impossibleCursor = encodeCursor("2026-13-01T00:00:00.000000", "0b9d7c3e-1f2a-4b5c-8d6e-7f8091a2b3c4");

describe("a board cursor that names no real time", () => {
  it("answers 400 JSON on /api/trades", async () => {
    const result = await outcome(() => apiBoardLoader(args<typeof apiBoardLoader>(get(`/api/trades?cursor=${impossibleCursor}`))));
    expect(result.status).toBe(400);
    expect(result.body).toMatchObject({ error: "ページの指定が正しくありません", code: "invalid_cursor" });
  });

  it("shows the first page of /trades", async () => {
    const owner = await createUser(database.db);
    const [give, want] = await catalogueCards(database.db, "◆◆", 2);
    const created = await outcome(() =>
      newOfferAction(args<typeof newOfferAction>(post("/trades/new", "", new URLSearchParams(), "application/x-www-form-urlencoded"))),
    );
    // Signed out: the action sends the visitor to log in before reading anything.
    expect(created.status).toBe(302);
    const cookie = await createSessionCookie(database.db, owner.id, SECRET);
    const form = new URLSearchParams([["give", `${give.id}*1`], ["want", `${want.id}*1`], ["comment", ""]]);
    const posted = await outcome(() => newOfferAction(args<typeof newOfferAction>(post("/trades/new", cookie, form, "application/x-www-form-urlencoded"))));
    expect(posted.status).toBe(302);

    const result = await outcome(() => boardLoader(args<typeof boardLoader>(get(`/trades?cursor=${impossibleCursor}`))));
    expect(result.status).toBe(200);
    const board = result.body as { offers: { ownerId: string }[]; isFirstPage: boolean };
    expect(board.offers.map((o) => o.ownerId)).toContain(owner.id);
    expect(board.isFirstPage).toBe(true);
  });
});

describe("an action given a body that is not a form", () => {
  it("answers 400, not 500, on the offer pages and the admin report API", async () => {
    const user = await createUser(database.db);
    const admin = await createUser(database.db, { role: "admin" });
    const [userCookie, adminCookie] = await Promise.all([user.id, admin.id].map((id) => createSessionCookie(database.db, id, SECRET)));
    const notAForm = ["{\"intent\":\"delete\"}", "application/json"] as const;
    const brokenMultipart = ["garbage", "multipart/form-data; boundary=nothing-here"] as const;

    for (const [body, type] of [notAForm, brokenMultipart]) {
      const created = await outcome(() => newOfferAction(args<typeof newOfferAction>(post("/trades/new", userCookie, body, type))));
      expect(created.status, `trades/new ${type}`).toBe(400);
      const offerId = "0b9d7c3e-1f2a-4b5c-8d6e-7f8091a2b3c4";
      const acted = await outcome(() => offerAction(args<typeof offerAction>(post(`/trades/${offerId}`, userCookie, body, type), { id: offerId })));
      expect(acted.status, `trades/:id ${type}`).toBe(400);
    }

    const reportId = "0b9d7c3e-1f2a-4b5c-8d6e-7f8091a2b3c4";
    for (const [body, type] of [brokenMultipart, ["x", "text/plain"] as const]) {
      const resolved = await outcome(() => reportAction(args<typeof reportAction>(post(`/api/admin/reports/${reportId}`, adminCookie, body, type), { id: reportId })));
      expect(resolved.status, `admin report ${type}`).toBe(400);
      expect(resolved.body).toEqual({ error: "リクエストの形式が正しくありません", code: "unreadable" });
    }
  });
});

describe("POST /api/trades/:id", () => {
  it("takes an action with only the fields it needs: respond with {action} alone opens the room", async () => {
    const [give, want] = await catalogueCards(database.db, "◆", 2);
    const owner = await createUser(database.db);
    const partner = await createUser(database.db);
    const offer = await createOffer(database.db, owner.id, OfferInputSchema.parse({ give: [{ cardId: give.id, count: 1 }], want: [{ cardId: want.id, count: 1 }], comment: "" }));
    const cookie = await createSessionCookie(database.db, partner.id, SECRET);
    const request = (body: unknown) => post(`/api/trades/${offer.id}`, cookie, JSON.stringify(body), "application/json");
    const responded = await outcome(() => apiOfferAction(args<typeof apiOfferAction>(request({ action: "respond" }), { id: offer.id })));
    expect(responded.status).toBe(200);
    expect(responded.body).toMatchObject({ roomId: expect.any(String) });
    // An unknown action, or none, is the offer API's own 400, not a schema failure of absent fields.
    const none = await outcome(() => apiOfferAction(args<typeof apiOfferAction>(request({}), { id: offer.id })));
    expect(none.status).toBe(400);
    expect(none.body).toMatchObject({ code: "bad_request" });
  });
});

describe("交渉する with a card from the owner's collection (何でも可)", () => {
  it("a card outside the owner's spare list is refused as {error, code} (API) and in the page's refusal shape, and opens no room; one from it lands in the room", async () => {
    const [spare, keptOnly, wanted] = await catalogueCards(database.db, "◆◆", 3);
    const owner = await createUser(database.db);
    const partner = await createUser(database.db);
    await setCardCounts(database.db, owner.id, [
      { cardId: spare.id, count: 2 },
      { cardId: keptOnly.id, count: 1 },
    ]);
    await saveCollectionSettings(database.db, owner.id, { showProgress: false, useForTrades: true, keepCount: 1 });
    const offer = await createOffer(database.db, owner.id, OfferInputSchema.parse({ give: [], giveAny: true, want: [{ cardId: wanted.id, count: 1 }], comment: "" }));
    const cookie = await createSessionCookie(database.db, partner.id, SECRET);

    const api = await outcome(() =>
      apiOfferAction(args<typeof apiOfferAction>(post(`/api/trades/${offer.id}`, cookie, JSON.stringify({ action: "respond", cardId: keptOnly.id }), "application/json"), { id: offer.id })),
    );
    expect(api.status).toBe(400);
    expect(api.body).toEqual({ error: "出品者のコレクションで余っているカードではありません。出品者のリストから選んでください", code: "card_not_owner_spare" });
    const form = (cardId: string) => new URLSearchParams({ intent: "respond", card: cardId }).toString();
    const page = await outcome(() => offerAction(args<typeof offerAction>(post(`/trades/${offer.id}`, cookie, form(keptOnly.id), "application/x-www-form-urlencoded"), { id: offer.id })));
    expect(page.status).toBe(400);
    expect(page.body).toMatchObject({ code: "card_not_owner_spare", intent: "respond" });
    const [rooms] = await rowsOf<{ n: number }>(database.db, sql`select count(*)::int as n from chat_rooms where offer_id = ${offer.id}::uuid`);
    expect(rooms.n).toBe(0);

    const chosen = await outcome(() => offerAction(args<typeof offerAction>(post(`/trades/${offer.id}`, cookie, form(spare.id), "application/x-www-form-urlencoded"), { id: offer.id })));
    expect(chosen.status).toBe(302);
  });
});

describe("the ほしい buttons on the board and the offer page", () => {
  it("the reader's wanted cards among the cards given: signed out none known (login), after adding the card it shows as added, the owner gets no buttons", async () => {
    const owner = await createUser(database.db);
    const reader = await createUser(database.db);
    const [give, other, want] = await catalogueCards(database.db, "◆◆◆", 3);
    const offer = await createOffer(database.db, owner.id, OfferInputSchema.parse({ give: [{ cardId: give.id, count: 1 }, { cardId: other.id, count: 1 }], want: [{ cardId: want.id, count: 1 }], comment: "" }));
    const [ownerCookie, readerCookie] = await Promise.all([owner.id, reader.id].map((id) => createSessionCookie(database.db, id, SECRET)));
    const board = async (cookie: string) =>
      (await outcome(() => boardLoader(args<typeof boardLoader>(new Request(`http://127.0.0.1:3000/trades?give=${give.id}`, { headers: { cookie } }))))).body as {
        offers: { id: string }[];
        wantedCardIds: string[] | null;
        returnTo: string;
      };
    const page = async (cookie: string) =>
      (await outcome(() => offerLoader(args<typeof offerLoader>(new Request(`http://127.0.0.1:3000/trades/${offer.id}`, { headers: { cookie } }), { id: offer.id })))).body as {
        wantedCardIds: string[] | null;
        returnTo: string;
      };

    const signedOut = await board("");
    expect(signedOut.offers.map((o) => o.id)).toContain(offer.id);
    expect(signedOut.wantedCardIds).toBeNull();
    expect(signedOut.returnTo).toBe(`/trades?give=${give.id}`);
    expect((await page("")).wantedCardIds).toBeNull();
    expect(await board(readerCookie)).toMatchObject({ wantedCardIds: [] });

    const added = await outcome(() =>
      wantedCardsAction(args<typeof wantedCardsAction>(post("/wanted-cards", readerCookie, new URLSearchParams({ cardId: give.id, intent: "add", redirectTo: `/trades?give=${give.id}` }), "application/x-www-form-urlencoded"))),
    );
    expect(added.status).toBe(302);
    expect((await board(readerCookie)).wantedCardIds).toEqual([give.id]);
    expect(await page(readerCookie)).toMatchObject({ wantedCardIds: [give.id], returnTo: `/trades/${offer.id}` });
    // The owner's own offer: nothing to want from it.
    expect((await page(ownerCookie)).wantedCardIds).toEqual([]);

    const removed = await outcome(() =>
      wantedCardsAction(args<typeof wantedCardsAction>(post("/wanted-cards", readerCookie, new URLSearchParams({ cardId: give.id, intent: "remove", redirectTo: `/trades/${offer.id}` }), "application/x-www-form-urlencoded"))),
    );
    expect(removed.status).toBe(302);
    expect((await page(readerCookie)).wantedCardIds).toEqual([]);
  });
});

describe("the ほしい chip's fetcher (answer=inline): it stays on its page, a refusal is answered in the page shape", () => {
  const press = (cookie: string, cardId: string, intent: "add" | "remove", answer: "inline" | null = "inline") =>
    outcome(() =>
      wantedCardsAction(
        args<typeof wantedCardsAction>(post("/wanted-cards", cookie, new URLSearchParams({ cardId, intent, redirectTo: "/trades", ...(answer ? { answer } : {}) }), "application/x-www-form-urlencoded")),
      ),
    );

  it("an add and a remove answer data, not a redirect", async () => {
    const reader = await createUser(database.db);
    const cookie = await createSessionCookie(database.db, reader.id, SECRET);
    const [card] = await catalogueCards(database.db, "◆◆", 1);
    expect(await press(cookie, card.id, "add")).toEqual({ status: 200, body: { ok: true, cardId: card.id, wanted: true } });
    expect((await listWantedCards(database.db, reader.id)).map((c) => c.cardId)).toEqual([card.id]);
    expect(await press(cookie, card.id, "remove")).toEqual({ status: 200, body: { ok: true, cardId: card.id, wanted: false } });
    expect(await listWantedCards(database.db, reader.id)).toEqual([]);
  });

  it("a board chip's press names the card, the intent and the way back in the action's query", async () => {
    const reader = await createUser(database.db);
    const cookie = await createSessionCookie(database.db, reader.id, SECRET);
    const [card] = await catalogueCards(database.db, "◆◆", 1);
    const chip = (intent: "add" | "remove", body: URLSearchParams, answer = "") =>
      outcome(() =>
        wantedCardsAction(
          args<typeof wantedCardsAction>(post(`/wanted-cards?${new URLSearchParams({ cardId: card.id, intent, redirectTo: "/trades?rarity=◆◆" })}${answer}`, cookie, body, "application/x-www-form-urlencoded")),
        ),
      );
    // Before hydration the browser posts the empty form and follows the way back.
    const plain = await chip("add", new URLSearchParams());
    expect(plain.status).toBe(302);
    expect((await listWantedCards(database.db, reader.id)).map((c) => c.cardId)).toEqual([card.id]);
    // The hydrated chip's fetcher adds answer=inline to the query.
    expect(await chip("remove", new URLSearchParams(), "&answer=inline")).toEqual({ status: 200, body: { ok: true, cardId: card.id, wanted: false } });
    expect(await listWantedCards(database.db, reader.id)).toEqual([]);
    // A field of the form wins over the same name in the query.
    expect(await chip("remove", new URLSearchParams({ intent: "add", answer: "inline" }))).toEqual({ status: 200, body: { ok: true, cardId: card.id, wanted: true } });
    expect((await listWantedCards(database.db, reader.id)).map((c) => c.cardId)).toEqual([card.id]);
  });

  it("a full list and a card that cannot be traded are refused as {code, message} in Japanese; a plain form's refusal stays the error page's", async () => {
    const reader = await createUser(database.db);
    const cookie = await createSessionCookie(database.db, reader.id, SECRET);
    const [card] = await catalogueCards(database.db, "◆◆◆◆", 1);
    await database.db.execute(
      sql`insert into wanted_cards (user_id, card_id) select ${reader.id}, c.id from cards c where c.id <> ${card.id} order by c.id limit ${MAX_WANTED_CARDS}`,
    );
    expect(await press(cookie, card.id, "add")).toEqual({ status: 400, body: { code: "too_many_wanted", message: `ほしいカードは${MAX_WANTED_CARDS}枚まで登録できます。` } });
    // Without answer=inline (before hydration): thrown as route error data, the /wanted-cards error page.
    await expect(wantedCardsAction(args<typeof wantedCardsAction>(post("/wanted-cards", cookie, new URLSearchParams({ cardId: card.id, intent: "add" }), "application/x-www-form-urlencoded")))).rejects.toMatchObject({
      init: { status: 400 },
      data: { code: "too_many_wanted" },
    });
    expect(await listWantedCards(database.db, reader.id)).toHaveLength(MAX_WANTED_CARDS);

    const [untradeable] = (await database.db.execute(sql`select c.id, c.name from cards c join rarities r on r.code = c.rarity where not r.tradeable order by c.id limit 1`).then(
      (r) => (r as unknown as { rows: { id: string; name: string }[] }).rows,
    ));
    const other = await createUser(database.db);
    const otherCookie = await createSessionCookie(database.db, other.id, SECRET);
    expect(await press(otherCookie, untradeable.id, "add")).toEqual({
      status: 400,
      body: { code: "not_tradeable", message: `「${untradeable.name}」はトレードできないレアリティのため、ほしいカードに追加できません。` },
    });
  });

  it("adds and removes past the per-minute limit are refused with 429 and a Japanese message, and change nothing", async () => {
    const reader = await createUser(database.db);
    const cookie = await createSessionCookie(database.db, reader.id, SECRET);
    const [card] = await catalogueCards(database.db, "◆", 1);
    expect((await press(cookie, card.id, "add")).status).toBe(200);
    // The limiter's count at the limit, in this minute's window and the next (should the minute turn over meanwhile).
    await database.db.execute(
      sql`insert into trade_rate_limits (user_id, action, window_start, count)
          select ${reader.id}, 'wanted-cards/minute', w, ${WANTED_CHANGES_PER_MINUTE}
          from (values (date_trunc('minute', now())), (date_trunc('minute', now()) + interval '1 minute')) as windows(w)
          on conflict (user_id, action, window_start) do update set count = excluded.count`,
    );
    const refused = { status: 429, body: { code: "too_many_wanted_changes", message: "ほしいカードの追加・削除が続いています。1分ほど待ってからもう一度お試しください。" } };
    expect(await press(cookie, card.id, "remove")).toEqual(refused);
    expect((await listWantedCards(database.db, reader.id)).map((c) => c.cardId)).toEqual([card.id]);
    const [other] = await catalogueCards(database.db, "◆◆", 1);
    expect(await press(cookie, other.id, "add")).toEqual(refused);
    expect((await listWantedCards(database.db, reader.id)).map((c) => c.cardId)).toEqual([card.id]);
  });
});
