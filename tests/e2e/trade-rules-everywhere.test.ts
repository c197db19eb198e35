import { randomBytes } from "node:crypto";
import { mkdirSync } from "node:fs";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readCatalogue } from "#app/features/cards/catalogue.server.ts";
import { launchBrowser, newContext, PHONE, seriousA11yViolations, watchConsole } from "#tests/support/browser.ts";
import { startServer, type RunningServer } from "#tests/support/server.ts";
import { signUpVerified } from "#tests/support/verified-account.ts";

// A server of its own: the rules these tests change (a pack closed, ☆☆☆ opened) would change
// what the other browser tests on the shared server see.
const ADMIN = { email: "admin-rules-e2e@example.com", password: "admin-rules-password", name: "ルール管理者" };
const DESKTOP = { viewport: { width: 1280, height: 900 } };
const WIDTHS = [
  { width: 390, height: 844 },
  { width: 1280, height: 900 },
];
const SHOTS = process.env.TRADE_RULES_SHOTS ?? "";

let server: RunningServer;
let browser: Browser;
let adminCookie: string;
type Card = { id: string; name: string; rarity: string; print: string };
const catalogue = readCatalogue().cards;
const card = (pick: (c: (typeof catalogue)[number]) => boolean): Card => {
  const found = catalogue.find(pick);
  if (!found) throw new Error("no such card in the catalogue");
  return { id: found.id!, name: found.name!, rarity: found.rarity!, print: `${found.setCode} ${String(found.number).padStart(3, "0")}` };
};
const only = (pack: string) => (c: (typeof catalogue)[number]) => c.packIds.length === 1 && c.packIds[0] === pack;
/** ◆ cards only in the pikachu pack, which a rule closes until 2099/12/10. */
const closedGive = card((c) => only("pikachu")(c) && c.rarity === "◆");
const closedWant = card((c) => only("pikachu")(c) && c.rarity === "◆" && c.id !== closedGive.id && c.name !== closedGive.name);
/** ☆☆☆ outside that pack: a rule opens the rarity now. */
const immersive = card((c) => c.rarity === "☆☆☆" && !c.packIds.includes("pikachu"));
const crown = card((c) => c.rarity === "👑");
const shining = card((c) => only("shining-high")(c) && c.rarity === "◆◆");
/** ◆◆ of another pack for the 何でも可 pair. */
const anyPair = card((c) => only("mewtwo")(c) && c.rarity === "◆◆");

beforeAll(async () => {
  server = await startServer({ ADMIN_EMAILS: ADMIN.email });
  adminCookie = await signUpVerified(server, ADMIN);
  browser = await launchBrowser();
  if (SHOTS) mkdirSync(SHOTS, { recursive: true });
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

type Player = { context: BrowserContext; page: Page; name: string; problems: string[] };

/** Signs up through the auth API and sets a friend ID on /profile, as a player does before trading. */
async function player(prefix: string, options: Parameters<Browser["newContext"]>[0]): Promise<Player> {
  const tag = randomBytes(3).toString("hex");
  const name = `${prefix}${tag}`;
  const context = await newContext(browser, options);
  const signup = await context.request.post(`${server.url}/api/auth/sign-up/email`, {
    data: { name, email: `rules-${tag}-${Date.now()}@example.com`, password: "trade-pass-1234" },
    headers: { Origin: server.url },
  });
  expect(signup.status()).toBe(200);
  const page = await context.newPage();
  const problems = watchConsole(page);
  await page.goto(`${server.url}/profile`);
  await page.fill("#profile-friend-id-input", `１２３４-５６７８-９０１２-${Math.floor(1000 + Math.random() * 8999)}`);
  await page.locator("form:has(#profile-friend-id-input) button[type=submit]").click();
  await page.getByTestId("profile-friend-id").waitFor();
  return { context, page, name, problems };
}

/** Two copies of `c` (one spare over the one kept) and the collection used for trades, wanting the cards the player misses. */
async function keepForTrades(p: Player, c: Card): Promise<void> {
  const headers = { Origin: server.url };
  const counts = await p.context.request.post(`${server.url}/api/collection/counts`, { data: { changes: [{ cardId: c.id, count: 2 }] }, headers });
  expect(counts.ok(), await counts.text()).toBe(true);
  const settings = await p.context.request.put(`${server.url}/api/collection/settings`, { data: { showProgress: false, useForTrades: true, keepCount: 1, wantMode: "missing", wantSets: null }, headers });
  expect(settings.ok(), await settings.text()).toBe(true);
}

/** Posts an offer through the JSON API (the form has its own tests). */
async function postOffer(p: Player, offer: { give?: Card[]; want?: Card[]; giveAny?: boolean; wantAny?: boolean }): Promise<string> {
  const side = (cards: Card[] = []) => cards.map((c) => ({ cardId: c.id, count: 1 }));
  const response = await p.context.request.post(`${server.url}/api/trades`, {
    data: { give: side(offer.give), want: side(offer.want), giveAny: offer.giveAny ?? false, wantAny: offer.wantAny ?? false, comment: "" },
    headers: { Origin: server.url },
  });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

/** An administrator's change through POST /api/admin/trade-rules (Japan-time dates, as the form sends them). */
async function ruleChange(change: Record<string, unknown>) {
  const response = await fetch(`${server.url}/api/admin/trade-rules`, {
    method: "POST",
    headers: { cookie: adminCookie, origin: server.url, "content-type": "application/json" },
    body: JSON.stringify(change),
  });
  expect(response.status, await response.text()).toBe(201);
}
const jstMinutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000 + 9 * 3600_000).toISOString().slice(0, 16);

/** Runs `check` at the phone and the desktop width, with axe clean at each, and keeps a screenshot when asked. */
async function atBothWidths(page: Page, shot: string, check: () => Promise<void>) {
  for (const viewport of WIDTHS) {
    await page.setViewportSize(viewport);
    await check();
    expect(await seriousA11yViolations(page)).toEqual([]);
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/${shot}-${viewport.width}.png`, fullPage: false });
  }
}

async function search(page: Page, label: string, query: string) {
  const box = page.getByRole("combobox", { name: label });
  const answered = page.waitForResponse((r) => r.url().includes("/api/trades/picker?") && new URL(r.url()).searchParams.get("q") === query);
  await box.fill(query);
  await answered;
  await page.locator("[role=listbox]:visible [role=option], .absolute:has-text('検索条件に一致するカードがありません')").first().waitFor();
}
const option = (page: Page, c: Card) => page.locator("[role=listbox]:visible [role=option]").filter({ hasText: c.print });

describe("one trade rule everywhere", () => {
  it("a pack closed until a date and ☆☆☆ opened: card pages, the picker, the board, the offer page, マッチ and トレード候補 say the same; the Shining High rule is on the rules page", async () => {
    const alice = await player("アリス", DESKTOP);
    const bob = await player("ボブ", PHONE);
    const aliceOffer = await postOffer(alice, { give: [closedGive], want: [closedWant] });
    await postOffer(bob, { give: [closedWant], want: [closedGive] });
    // Before the change, B is offered 交渉する on A's offer.
    await bob.page.goto(`${server.url}/trades/${aliceOffer}`);
    await bob.page.getByRole("button", { name: "交渉する" }).waitFor();
    // Their collections complement each other: B sees A in トレード候補 with that one pair.
    await keepForTrades(alice, closedGive);
    await keepForTrades(bob, closedWant);
    await bob.page.goto(`${server.url}/collection/trades`);
    const aliceCandidate = bob.page.getByRole("article", { name: `${alice.name}さんとの交換` });
    await expect.poll(() => aliceCandidate.getByRole("listitem").count()).toBe(1);

    await ruleChange({ scope: "pack", target: "pikachu", tradeable: false, effectiveAt: jstMinutesAgo(1), until: "2099-12-10T00:00", note: "e2e: 新しいパックはトレード対象外" });
    await ruleChange({ scope: "rarity", target: "☆☆☆", tradeable: true, effectiveAt: jstMinutesAgo(1), note: "e2e: ☆☆☆を解禁" });

    // The rule closes a card of that pair: it is gone from B's トレード候補 at once, and with it A.
    await bob.page.goto(`${server.url}/collection/trades`);
    await bob.page.getByRole("heading", { level: 1 }).waitFor();
    expect(await aliceCandidate.count()).toBe(0);

    // B (phone): the board marks A's offer and offers no 交渉する; nor does the offer page.
    await bob.page.goto(`${server.url}/trades`);
    const onBoard = bob.page.locator("article", { has: bob.page.getByRole("heading", { name: `${alice.name}さんのトレード募集` }) });
    await atBothWidths(bob.page, "board-rule-closed", async () => {
      await onBoard.getByTestId("rule-closed").waitFor();
      expect(await onBoard.getByRole("button", { name: "交渉する" }).count()).toBe(0);
    });
    await bob.page.goto(`${server.url}/trades/${aliceOffer}`);
    await atBothWidths(bob.page, "offer-rule-closed", async () => {
      await bob.page.getByTestId("rule-closed").waitFor();
      expect(await bob.page.getByRole("button", { name: "交渉する" }).count()).toBe(0);
    });
    // Card pages read the same rule.
    await bob.page.goto(`${server.url}/cards/${closedGive.id}`);
    await atBothWidths(bob.page, "card-pack-closed", async () => {
      const text = await bob.page.getByTestId("card-tradeability").textContent();
      expect(text).toMatch(/のカードは2099\/12\/10 0:00からトレードできます/);
      expect(await bob.page.getByTestId("card-tradeability").getByRole("link", { name: "トレードルール" }).getAttribute("href")).toBe("/trade-rules");
    });
    await bob.page.goto(`${server.url}/cards/${immersive.id}`);
    expect(await bob.page.getByTestId("card-tradeability").textContent()).toBe("トレードできます");
    await bob.page.goto(`${server.url}/cards/${shining.id}`);
    expect(await bob.page.getByTestId("card-tradeability").textContent()).toContain("シャイニングハイのカードはトレードできません");
    // B's only offer holds a closed card: マッチ says so instead of "post an offer first".
    await bob.page.goto(`${server.url}/trades?view=matches`);
    await atBothWidths(bob.page, "matches-closed-by-rules", async () => {
      expect(await bob.page.getByTestId("matches-empty").textContent()).toBe("公開中の募集のカードは、トレードルールの変更により今はトレードできません。 トレードルールを見る");
    });

    // A (desktop): the picker lists the card the rule opens later, marked and not choosable; ☆☆☆ can be chosen; 👑 and Shining High are not listed.
    await alice.page.goto(`${server.url}/trades/new`);
    const give = "譲れるカードを追加";
    await search(alice.page, give, closedGive.name);
    const marked = option(alice.page, closedGive);
    await atBothWidths(alice.page, "picker-marked", async () => {
      if (!(await marked.isVisible())) await search(alice.page, give, closedGive.name);
      expect(await marked.getByTestId("opens-at").textContent()).toBe("2099/12/10 0:00からトレードできます（まだ選べません）");
      expect(await marked.getAttribute("aria-disabled")).toBe("true");
    });
    // aria-disabled: Playwright would wait for it to be enabled; a player's tap still lands on it.
    await marked.click({ force: true });
    expect(await alice.page.getByTestId("chosen-card-print").count()).toBe(0);
    await search(alice.page, give, immersive.name);
    await option(alice.page, immersive).click();
    await alice.page.getByTestId("chosen-card-print").filter({ hasText: immersive.print.split(" ")[0] }).first().waitFor();
    await search(alice.page, give, crown.name);
    expect(await option(alice.page, crown).count()).toBe(0);
    await search(alice.page, give, shining.name);
    expect(await option(alice.page, shining).count()).toBe(0);

    // The rules page shows the Shining High pack rule with its note.
    await alice.page.goto(`${server.url}/trade-rules`);
    await atBothWidths(alice.page, "rules-page", async () => {
      expect(await alice.page.getByTestId("rules-history").textContent()).toContain("シャイニングハイのパックのカードはトレード対象外です");
    });

    // A player with no offer is told to post one.
    const carol = await player("キャロル", DESKTOP);
    await carol.page.goto(`${server.url}/trades?view=matches`);
    expect(await carol.page.getByTestId("matches-empty").textContent()).toBe("公開中の募集がありません。 マッチを表示するには、まず募集を作成してください。");

    for (const p of [alice, bob, carol]) {
      expect(p.problems).toEqual([]);
      await p.context.close();
    }
  }, 240_000);

  it("何でも可 matches from both sides: 譲 X / 求 何でも可 (desktop) and 譲 何でも可 / 求 X (phone) each see the other in マッチ", async () => {
    const dora = await player("ドラ", DESKTOP);
    const eve = await player("イヴ", PHONE);
    await postOffer(dora, { give: [anyPair], wantAny: true });
    await postOffer(eve, { giveAny: true, want: [anyPair] });
    for (const [me, other, shot] of [
      [dora, eve, "matches-any-desktop-side"],
      [eve, dora, "matches-any-phone-side"],
    ] as const) {
      await me.page.goto(`${server.url}/trades?view=matches`);
      await atBothWidths(me.page, shot, async () => {
        await me.page.getByRole("heading", { name: `${other.name}さんのトレード募集` }).waitFor();
      });
    }
    // E answers D's offer from マッチ: the room names E's side 何でも可 instead of leaving it empty.
    await eve.page.goto(`${server.url}/trades?view=matches`);
    await eve.page.locator("article", { has: eve.page.getByRole("heading", { name: `${dora.name}さんのトレード募集` }) }).getByRole("button", { name: "交渉する" }).click();
    await eve.page.waitForURL(/\/chat\//);
    await atBothWidths(eve.page, "room-any-side", async () => {
      expect((await eve.page.getByTestId("trade-panel-summary").textContent())?.replace(/\s+/g, " ")).toBe(`渡す: 何でも可（同じレアリティ） ⇄ もらう: ${anyPair.name}◆◆`);
    });
    for (const p of [dora, eve]) {
      expect(p.problems).toEqual([]);
      await p.context.close();
    }
  }, 120_000);
});
