import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tradeOffers } from "#app/db/schema/index.ts";
import { blockUser } from "#app/features/blocks/blocks.server.ts";
import { seedCatalogue } from "#app/features/cards/catalogue.server.ts";
import { listBoard, queryBoard } from "#app/features/trades/board.server.ts";
import { createOffer } from "#app/features/trades/offers.server.ts";
import { OfferInputSchema } from "#app/features/trades/trades.schema.ts";
import { catalogueCards, createUser } from "#tests/support/factories.ts";
import { createTestDatabase, type TestDatabase } from "#tests/support/test-db.ts";

let database: TestDatabase;
let db: TestDatabase["db"];
let cards: { id: string }[];
beforeAll(async () => {
  database = await createTestDatabase();
  db = database.db;
  await seedCatalogue(db);
  cards = await catalogueCards(db, "◆◆", 2);
});
afterAll(async () => {
  await database?.close();
});

const input = () => OfferInputSchema.parse({ give: [{ cardId: cards[0].id, count: 1 }], want: [{ cardId: cards[1].id, count: 1 }], comment: "" });
const ids = (offers: { id: string }[]) => offers.map((o) => o.id);
/** What the database answers the viewer now, without the kept pages. */
const board = async (viewerId: string | undefined, limit = 4) => ids((await queryBoard(db, { viewerId, limit })).offers);
/** The board's first `limit` offers as pages show them (the home page shows 4). */
const newestOffersFor = async (viewerId: string | null, limit: number, now?: Date) => (await listBoard(db, { viewerId, limit }, now)).offers;

describe("board pages, kept for everyone", () => {
  it("are the board's newest, a new offer shows at once, and blocks hide offers both ways", async () => {
    const owners = [await createUser(db), await createUser(db), await createUser(db)];
    for (const owner of owners) for (let i = 0; i < 2; i++) await createOffer(db, owner.id, input());
    const reader = await createUser(db);
    expect(ids(await newestOffersFor(null, 4))).toEqual(await board(undefined));

    // A write moves the board version: the kept list follows at once.
    const { id: newest } = await createOffer(db, owners[0].id, input());
    expect(ids(await newestOffersFor(null, 4))[0]).toBe(newest);
    expect(ids(await newestOffersFor(reader.id, 4))).toEqual(await board(reader.id));

    // The reader blocks one owner and is blocked by another: only the third owner's offers are left.
    await blockUser(db, reader.id, owners[0].id);
    await blockUser(db, owners[1].id, reader.id);
    const shown = await newestOffersFor(reader.id, 4);
    expect(shown.map((o) => o.ownerId)).toEqual([owners[2].id, owners[2].id]);
    expect(ids(shown)).toEqual(await board(reader.id));
    expect(ids(await newestOffersFor(null, 4))).toEqual(await board(undefined));
  });

  it("leaves out an offer that expired by the clock, which moves no board version", async () => {
    const owner = await createUser(db);
    const { id } = await createOffer(db, owner.id, input());
    // An offer a minute from its end (written behind the app's back: no change is published).
    const soon = new Date(Date.now() + 60_000);
    await db.update(tradeOffers).set({ expiresAt: soon }).where(eq(tradeOffers.id, id));
    expect(ids(await newestOffersFor(null, 4))[0]).toBe(id);
    // The minute passes: the list kept since then no longer shows it.
    expect(ids(await newestOffersFor(null, 4, new Date(soon.getTime() - 1_000)))).toContain(id);
    expect(ids(await newestOffersFor(null, 4, new Date(soon.getTime() + 1_000)))).not.toContain(id);
  });

  it("asks the board itself when the viewer's blocks leave too few of the kept offers", async () => {
    const prolific = [await createUser(db), await createUser(db), await createUser(db), await createUser(db)];
    for (const owner of prolific) for (let i = 0; i < 5; i++) await createOffer(db, owner.id, input());
    const reader = await createUser(db);
    for (const owner of prolific) await blockUser(db, reader.id, owner.id);
    // The 20 kept are all theirs.
    expect(new Set((await newestOffersFor(null, 20)).map((o) => o.ownerId))).toEqual(new Set(prolific.map((o) => o.id)));
    const shown = await newestOffersFor(reader.id, 4);
    expect(shown).toHaveLength(4);
    expect(shown.some((o) => prolific.some((p) => p.id === o.ownerId))).toBe(false);
    expect(ids(shown)).toEqual(await board(reader.id));
  });

  it("pages on with the same cursors, per filter, as the database answers the reader", async () => {
    const owners = [];
    for (let i = 0; i < 9; i++) owners.push(await createUser(db));
    for (let i = 0; i < 45; i++) await createOffer(db, owners[i % 9].id, input());
    const reader = await createUser(db);
    await blockUser(db, owners[1].id, reader.id);
    for (const viewerId of [undefined, reader.id]) {
      for (const filters of [{}, { give: cards[0].id }, { want: cards[1].id, rarity: "◆◆" }]) {
        let cursor: string | null = null;
        let pages = 0;
        do {
          const kept = await listBoard(db, { viewerId, filters, cursor });
          const fresh = await queryBoard(db, { viewerId, filters, cursor });
          expect(ids(kept.offers)).toEqual(ids(fresh.offers));
          expect(kept.nextCursor).toEqual(fresh.nextCursor);
          expect(kept.offers).toHaveLength(Math.min(20, kept.offers.length));
          cursor = kept.nextCursor;
          pages++;
        } while (cursor && pages < 20);
        expect(pages).toBeGreaterThan(1);
      }
    }
  });

  it("refuses a damaged cursor before it names a kept page", async () => {
    await expect(listBoard(db, { cursor: "not-a-cursor" })).rejects.toMatchObject({ code: "invalid_cursor" });
  });
});
