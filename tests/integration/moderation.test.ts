import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reports } from "#app/db/schema/index.ts";
import { seedCatalogue } from "#app/features/cards/catalogue.server.ts";
import { sendMessage } from "#app/features/chat/chat.server.ts";
import { listReports, reportMessage, reportOffer, reportsTabData, REPORTS_PER_HOUR } from "#app/features/moderation/moderation.server.ts";
import { ModerationError } from "#app/features/moderation/errors.ts";
import { OfferInputSchema } from "#app/features/trades/trades.schema.ts";
import { createOffer, openChatRoomForOffer } from "#app/features/trades/offers.server.ts";
import { catalogueCards, createUser } from "#tests/support/factories.ts";
import { createTestDatabase, type TestDatabase } from "#tests/support/test-db.ts";

let database: TestDatabase;
let db: TestDatabase["db"];
let pair: { id: string }[];

beforeAll(async () => {
  database = await createTestDatabase();
  db = database.db;
  await seedCatalogue(db);
  pair = await catalogueCards(db, "◆◆", 2);
});
afterAll(async () => {
  await database?.close();
});

const newOffer = async (ownerId: string) =>
  (await createOffer(db, ownerId, OfferInputSchema.parse({ give: [{ cardId: pair[0].id, count: 1 }], want: [{ cardId: pair[1].id, count: 1 }] }))).id;

/** A room with one message from its owner; `reporter` is the partner. */
async function roomWithMessage() {
  const owner = await createUser(db);
  const reporter = await createUser(db);
  const { roomId } = await openChatRoomForOffer(db, { offerId: await newOffer(owner.id), userId: reporter.id });
  const { message } = await sendMessage(db, { roomId, userId: owner.id, clientId: crypto.randomUUID(), body: "悪い言葉" });
  return { owner, reporter, messageId: message.id };
}

const openReportsOf = async (reporterId: string) =>
  db.select({ id: reports.id }).from(reports).where(and(eq(reports.reporterId, reporterId), eq(reports.status, "open")));

describe("moderation: one service for offer and message reports", () => {
  it("keeps one open report when the same message is reported again and again", async () => {
    const { reporter, messageId } = await roomWithMessage();
    const first = await reportMessage(db, { reporterId: reporter.id, messageId, reason: "暴言" });
    for (let i = 0; i < 29; i++) expect(await reportMessage(db, { reporterId: reporter.id, messageId, reason: "暴言" })).toEqual(first);
    expect(await openReportsOf(reporter.id)).toHaveLength(1);
    const listed = (await listReports(db)).filter((r) => r.targetId === messageId);
    expect(listed).toHaveLength(1);
  });

  it("counts offer and message reports against one hourly limit", async () => {
    const reporter = await createUser(db);
    // Each offer from its own owner (an owner may keep only a few open).
    const someonesOffer = async () => newOffer((await createUser(db)).id);
    for (let i = 0; i < REPORTS_PER_HOUR - 1; i++) await reportOffer(db, reporter.id, await someonesOffer(), "不審");
    // The last one of the hour is a message report; the next report of either kind is refused.
    const room = await roomWithMessage();
    const { roomId } = await openChatRoomForOffer(db, { offerId: await newOffer(room.owner.id), userId: reporter.id });
    const { message } = await sendMessage(db, { roomId, userId: room.owner.id, clientId: crypto.randomUUID(), body: "もう一つ" });
    await reportMessage(db, { reporterId: reporter.id, messageId: message.id, reason: "暴言" });
    expect(await openReportsOf(reporter.id)).toHaveLength(REPORTS_PER_HOUR);

    const { message: another } = await sendMessage(db, { roomId, userId: room.owner.id, clientId: crypto.randomUUID(), body: "さらに" });
    const refusedMessage = await reportMessage(db, { reporterId: reporter.id, messageId: another.id, reason: "暴言" }).catch((e: unknown) => e);
    expect(refusedMessage).toBeInstanceOf(ModerationError);
    expect(refusedMessage).toMatchObject({ code: "report_rate_limited", status: 429 });
    expect((refusedMessage as ModerationError).text("ja")).toBe("通報が多すぎます。しばらくしてからお試しください。");
    const refusedOffer = await reportOffer(db, reporter.id, await someonesOffer(), "不審").catch((e: unknown) => e);
    expect(refusedOffer).toBeInstanceOf(ModerationError);
    expect(refusedOffer).toMatchObject({ code: "rate_limited_report", status: 429 });
    // Nothing was written for the refused ones.
    expect(await openReportsOf(reporter.id)).toHaveLength(REPORTS_PER_HOUR);
  });

  it("gives the admin tab its data from plain arguments", async () => {
    const { reporter, messageId } = await roomWithMessage();
    await reportMessage(db, { reporterId: reporter.id, messageId, reason: "スパム" });
    const tab = await reportsTabData(db, { filter: "open", done: true });
    expect(tab.filter).toBe("open");
    expect(tab.done).toBe(true);
    expect(tab.reports.find((r) => r.targetId === messageId)).toMatchObject({ targetType: "message", reason: "スパム", messageBody: "悪い言葉" });
  });
});
