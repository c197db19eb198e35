import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import type { AppLoadContext } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf } from "#app/db/sql.server.ts";
import { seedCatalogue } from "#app/features/cards/catalogue.server.ts";
import { listTradeRarities } from "#app/features/trades/board.server.ts";
import { tradePickerEndpoint } from "#app/features/trades/endpoints.server.ts";
import { deckCardViews } from "#app/features/decks/decks.server.ts";
import { boardUrlForDeck, newOfferUrlForDeck } from "#app/features/decks/trade-links.ts";
import { listMatchListPage, listMatchPage, matchingOffers } from "#app/features/trades/matches.server.ts";
import { createOffer, openChatRoomForOffer } from "#app/features/trades/offers.server.ts";
import { TradeRuleChangeSchema } from "#app/features/trades/trade-rules.schema.ts";
import { addTradeRuleChange, tradeRulesPageData } from "#app/features/trades/trade-rules.server.ts";
import { OfferInputSchema } from "#app/features/trades/trades.schema.ts";
import type { TradePickerCard } from "#app/features/trades/types.ts";
import { loadEnv } from "#app/lib/env.server.ts";
import { loader as cardPageLoader } from "#app/routes/card.tsx";
import { catalogueCards, createUser } from "#tests/support/factories.ts";
import { createTestDatabase, type TestDatabase } from "#tests/support/test-db.ts";

let database: TestDatabase;
let db: TestDatabase["db"];
let context: AppLoadContext;
type Card = { id: string; name: string; rarity: string };
let closedPack: Card[]; // ◆◆ only in the pack a rule closes until a date
let open: Card[]; // ◆◆ only in another pack
let immersive: Card; // ☆☆☆: opened by a rule
let crown: Card; // 👑: still closed, no date
let shining: Card; // ◆◆ only in the Shining High pack

beforeAll(async () => {
  database = await createTestDatabase();
  db = database.db;
  await seedCatalogue(db);
  closedPack = await catalogueCards(db, "◆◆", 2, { onlyPack: "pikachu" });
  open = await catalogueCards(db, "◆◆", 4, { onlyPack: "mewtwo" });
  [immersive] = (await catalogueCards(db, "☆☆☆", 12)).filter((c) => !c.id.startsWith("A1-"));
  [crown] = await catalogueCards(db, "👑", 1);
  [shining] = await catalogueCards(db, "◆◆", 1, { onlyPack: "shining-high" });
  const env = loadEnv({ DATA_DIR: mkdtempSync(path.join(tmpdir(), "torepoke-rules-everywhere-")), BETTER_AUTH_SECRET: randomBytes(32).toString("base64url"), SITE_URL: "http://127.0.0.1:3000", LOG_LEVEL: "silent" });
  context = { db, env, cspNonce: "test" } as AppLoadContext;
});
afterAll(async () => {
  await database?.close();
});

const offer = (give: Card[], want: Card[]) => OfferInputSchema.parse({ give: give.map((c) => ({ cardId: c.id, count: 1 })), want: want.map((c) => ({ cardId: c.id, count: 1 })), comment: "" });
/** A Japan-time `YYYY-MM-DDTHH:mm` as the admin form sends it, `minutes` from now. */
const jst = (minutes: number) => new Date(Date.now() + minutes * 60_000 + 9 * 3600_000).toISOString().slice(0, 16);
const change = (input: Record<string, unknown>) => TradeRuleChangeSchema.parse(input);
const refusal = (run: () => Promise<unknown>) =>
  run().then(
    () => null,
    (e: unknown) => (e as { code?: string }).code ?? e,
  );
/** The trade picker's answer for a search. */
const picker = async (q: string, rarity?: string): Promise<TradePickerCard[]> => {
  const response = await tradePickerEndpoint(new Request(`http://127.0.0.1:3000/api/trades/picker?q=${encodeURIComponent(q)}${rarity ? `&rarity=${encodeURIComponent(rarity)}` : ""}`), context);
  return ((await response.json()) as { cards: TradePickerCard[] }).cards;
};
const cardPage = async (cardId: string) =>
  (await cardPageLoader({ request: new Request(`http://127.0.0.1:3000/cards/${cardId}`), params: { cardId }, context } as unknown as Parameters<typeof cardPageLoader>[0])) as {
    tradeability: { tradeable: boolean; scope?: string; target?: string; until?: string | null };
  };

/** A deck page's cards and its two trade links (募集する and the board), as the page builds them. */
const deckLinks = async (list: Card[]) => {
  const cards = await deckCardViews(db, list.map((c) => ({ cardId: c.id, packId: null, count: 2 })));
  return { board: boardUrlForDeck(cards), offer: newOfferUrlForDeck(cards) };
};

describe("one trade rule everywhere (docs/decisions/033)", () => {
  it("deck pages' trade links leave out Shining High cards: its pack rule, not the rarity's default flag", async () => {
    expect(await deckLinks([open[0], shining])).toEqual({ board: `/trades?giveAny=${open[0].id}`, offer: `/trades/new?want=${open[0].id}*2` });
  });

  it("the Shining High exclusion is a pack rule in the data: on the rules page, refused by the gate and left out of the picker until an admin lifts it", async () => {
    const admin = await createUser(db, { role: "admin" });
    const user = await createUser(db);
    // The rule closes a card when any of its packs is closed (018); the old constant left a card
    // out only when all its packs were excluded. No card of the catalogue is in both.
    const [both] = await rowsOf<{ n: number }>(
      db,
      sql`select count(*)::int as n from card_packs s join card_packs o on o.card_id = s.card_id and o.pack_id <> 'shining-high' where s.pack_id = 'shining-high'`,
    );
    expect(both.n).toBe(0);
    const page = await tradeRulesPageData(db);
    expect(page.rules.changes.filter((c) => c.target === "shining-high").map((c) => `${c.scope}:${c.tradeable}:${c.note}`)).toEqual([
      "pack:false:シャイニングハイのパックのカードはトレード対象外です（サイト開設時からの取り扱い）。",
    ]);
    expect((await cardPage(shining.id)).tradeability).toEqual({ tradeable: false, scope: "pack", target: "shining-high", until: null });
    expect(await refusal(() => createOffer(db, user.id, offer([shining], [open[0]])))).toBe("not_tradeable");
    expect((await picker(shining.name)).map((c) => c.id)).not.toContain(shining.id);

    await addTradeRuleChange(db, change({ scope: "pack", target: "shining-high", tradeable: true, effectiveAt: jst(-1), note: "解除" }), admin.id);
    expect((await cardPage(shining.id)).tradeability).toEqual({ tradeable: true });
    expect((await picker(shining.name)).find((c) => c.id === shining.id)).toMatchObject({ opensAt: null });
    await expect(createOffer(db, user.id, offer([shining], [open[0]]))).resolves.toMatchObject({ id: expect.any(String) });
  });

  it("card pages, the picker, the board's filters and 交渉する read the rules: a pack closed until a date, ☆☆☆ opened, 👑 still closed", async () => {
    const admin = await createUser(db, { role: "admin" });
    const owner = await createUser(db);
    const partner = await createUser(db);
    const early = await createOffer(db, owner.id, offer([closedPack[0]], [closedPack[1]]));
    const talked = await createOffer(db, owner.id, offer([open[2], closedPack[1]], [open[3]]));
    const room = await openChatRoomForOffer(db, { offerId: talked.id, userId: partner.id });
    // Before any change the card page says ☆☆☆ cannot be traded.
    expect((await cardPage(immersive.id)).tradeability).toMatchObject({ tradeable: false, scope: "rarity" });

    await addTradeRuleChange(db, change({ scope: "pack", target: "pikachu", tradeable: false, effectiveAt: jst(-1), until: "2099-12-10T00:00", note: "新パック" }), admin.id);
    await addTradeRuleChange(db, change({ scope: "rarity", target: "☆☆☆", tradeable: true, effectiveAt: jst(-1), note: "☆☆☆解禁" }), admin.id);

    // Card pages.
    expect((await cardPage(closedPack[0].id)).tradeability).toEqual({ tradeable: false, scope: "pack", target: "pikachu", until: "2099-12-09T15:00:00.000Z" });
    expect((await cardPage(immersive.id)).tradeability).toEqual({ tradeable: true });
    expect((await cardPage(crown.id)).tradeability).toMatchObject({ tradeable: false, scope: "rarity", until: null });

    // The picker: exactly what can be traded now, plus, marked, what a dated rule opens; 👑 stays out.
    expect((await picker(closedPack[0].name)).find((c) => c.id === closedPack[0].id)).toMatchObject({ opensAt: "2099-12-09T15:00:00.000Z" });
    expect((await picker(immersive.name)).find((c) => c.id === immersive.id)).toMatchObject({ opensAt: null });
    expect((await picker(crown.name)).map((c) => c.id)).not.toContain(crown.id);
    for (const card of await picker("ピカチュウ")) expect(card.rarity === "👑" || card.rarity === "♛").toBe(false);
    // Within given rarities (a room's 何でも可 side is chosen within the other side's rarity).
    const diamonds = await picker("ピカチュウ", "◆,◆◆");
    expect(diamonds.length).toBeGreaterThan(0);
    for (const card of diamonds) expect(["◆", "◆◆"]).toContain(card.rarity);

    // The board's rarity filter follows the rules too.
    const rarities = (await listTradeRarities(db)).map((r) => r.code);
    expect(rarities).toContain("☆☆☆");
    expect(rarities).not.toContain("👑");

    // 交渉する: a new room on an offer a rule closed is refused; an existing room goes on.
    const stranger = await createUser(db);
    expect(await refusal(() => openChatRoomForOffer(db, { offerId: early.id, userId: stranger.id }))).toBe("rule_closed");
    await expect(openChatRoomForOffer(db, { offerId: talked.id, userId: partner.id })).resolves.toEqual({ roomId: room.roomId, created: false });
  });

  it("マッチ's empty state says what is true: no open offer, every open offer closed by a rule, or no match right now", async () => {
    const admin = await createUser(db, { role: "admin" });
    const nobody = await createUser(db);
    expect((await listMatchListPage(db, nobody.id, 1, "ja")).emptyReason).toBe("no_open_offer");
    const charizard = await catalogueCards(db, "◆◆", 2, { onlyPack: "charizard" });
    const closedOwner = await createOffer(db, (await createUser(db)).id, offer([charizard[0]], [charizard[1]]));
    const lonely = await createUser(db);
    await createOffer(db, lonely.id, offer([open[0]], [open[1]]));
    expect((await listMatchListPage(db, lonely.id, 1, "ja")).emptyReason).toBe("no_match");
    await addTradeRuleChange(db, change({ scope: "pack", target: "charizard", tradeable: false, effectiveAt: jst(-1), note: "閉鎖" }), admin.id);
    const [owner] = await rowsOf<{ owner_id: string }>(db, sql`select owner_id from trade_offers where id = ${closedOwner.id}::uuid`);
    expect((await listMatchListPage(db, owner.owner_id, 1, "ja")).emptyReason).toBe("closed_by_rules");
  });

  it("deck pages' trade links follow the rules: ☆☆☆ opened is in, a closed pack and 👑 are out", async () => {
    // By now a rule opened ☆☆☆ and closed the pikachu pack until a date (the tests above).
    const links = await deckLinks([immersive, closedPack[0], crown, open[1]]);
    expect(links).toEqual({ board: `/trades?giveAny=${immersive.id},${open[1].id}`, offer: `/trades/new?want=${immersive.id}*2,${open[1].id}*2` });
  });

  it("マッチ and the new-offer notifications leave out other players' offers a rule closed (their 交渉する is refused)", async () => {
    const admin = await createUser(db, { role: "admin" });
    // Cards no other test's offer names.
    const [a, b] = (await catalogueCards(db, "◆◆", 8, { onlyPack: "mewtwo" })).slice(6);
    const [newPack] = await catalogueCards(db, "◆◆", 1, { onlyPack: "dialga" });
    const viewer = await createUser(db);
    await createOffer(db, viewer.id, offer([b], [a]));
    const closing = await createOffer(db, (await createUser(db)).id, offer([a, newPack], [b]));
    const staying = await createOffer(db, (await createUser(db)).id, offer([a], [b]));
    expect((await listMatchPage(db, viewer.id, 1)).total).toBe(2);

    await addTradeRuleChange(db, change({ scope: "pack", target: "dialga", tradeable: false, effectiveAt: jst(-1), note: "新パック" }), admin.id);
    expect(await refusal(() => openChatRoomForOffer(db, { offerId: closing.id, userId: viewer.id }))).toBe("rule_closed");
    const page = await listMatchPage(db, viewer.id, 1);
    expect(page.matches.map((m) => m.id)).toEqual([staying.id]);
    expect({ total: page.total, pageCount: page.pageCount }).toEqual({ total: 1, pageCount: 1 });
    expect((await listMatchListPage(db, viewer.id, 1, "ja")).items.map((m) => m.id)).toEqual([staying.id]);

    // A new offer's notification and the funnel's matched events: the same offers, in a post's transaction too.
    const ids = (found: { offerId: string }[]) => found.map((f) => f.offerId).filter((id) => id === closing.id || id === staying.id);
    const poster = await createUser(db);
    const posted = { give: [{ cardId: b.id, rarity: b.rarity }], want: [{ cardId: a.id, rarity: a.rarity }], giveAny: false, wantAny: false };
    expect(ids(await matchingOffers(db, poster.id, posted))).toEqual([staying.id]);
    expect(ids(await db.transaction((tx) => matchingOffers(tx, poster.id, posted)))).toEqual([staying.id]);
    const mine = await createOffer(db, poster.id, offer([b], [a]));
    const matched = await rowsOf<{ offer_id: string }>(db, sql`select offer_id from analytics_events where kind = 'matched' and user_id = ${poster.id} and offer_id <> ${mine.id}::uuid`);
    expect(matched.map((m) => m.offer_id).filter((id) => id === closing.id || id === staying.id)).toEqual([staying.id]);
  });
});
