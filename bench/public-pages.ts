// One of each public page kind for the first-load and Lighthouse audits, made through the public
// HTTP API the way a script would: an admin (start the server with ADMIN_EMAILS set to
// PAGES_ADMIN.email) writes an article and a deck recipe, a player with a friend ID posts an offer.
// The admin's address is verified from the link the server mails (DATA_DIR/mail without SMTP_URL):
// ADMIN_EMAILS makes an administrator only once the address is verified.
import { randomBytes } from "node:crypto";
import { verifyAddressFromMail } from "#tests/support/verified-account.ts";

export const PAGES_ADMIN = { email: "audit-admin@example.com", password: "audit-admin-password-2026", name: "監査" };

export type SeededPages = { cardId: string; offerId: string; articleSlug: string; deckSlug: string };

/** Signs up (JSON auth API) and returns the session cookie. */
export async function signUp(base: string, user: { email: string; password: string; name: string }): Promise<string> {
  const res = await fetch(`${base}/api/auth/sign-up/email`, { method: "POST", headers: { origin: base, "content-type": "application/json" }, body: JSON.stringify(user) });
  if (!res.ok) throw new Error(`sign-up failed: ${res.status} ${await res.text()}`);
  return res.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
}

async function post(base: string, path: string, cookie: string, body: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${base}${path}`, { method: "POST", headers: { origin: base, cookie, "content-type": "application/json" }, body: JSON.stringify(body) });
  if (res.status !== 201) throw new Error(`POST ${path} answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as Record<string, unknown>;
}

/** The server to seed: its URL and the data folder it writes its mails to. */
type SeededServer = Parameters<typeof verifyAddressFromMail>[0];

export async function seedPublicPages(server: SeededServer): Promise<SeededPages> {
  const base = server.url;
  const trader = await signUp(base, { email: `audit-${randomBytes(4).toString("hex")}@example.com`, password: "audit-trader-pass-1", name: "監査" });
  const profile = await fetch(`${base}/profile`, {
    method: "POST",
    headers: { origin: base, cookie: trader, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ displayName: "監査", friendId: "1234567890123456" }),
    redirect: "manual",
  });
  if (profile.status >= 400) throw new Error(`profile save answered ${profile.status}`);
  const cards = (await (await fetch(`${base}/api/cards?pack=pikachu&rarity=${encodeURIComponent("◆◆◆◆")}&limit=2`)).json()) as { cards: { id: string }[] };
  const [give, want] = cards.cards;
  const offer = await post(base, "/api/trades", trader, { give: [{ cardId: give.id, count: 1 }], want: [{ cardId: want.id, count: 1 }], comment: "監査用の募集です" });
  // One live フレンド募集 post, so /friends is the indexable page players land on (an empty board is noindex).
  const friendPost = await fetch(`${base}/friends`, {
    method: "POST",
    headers: { origin: base, cookie: trader, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams([["intent", "create"], ["purposes", "trade"], ["comment", "トレードできるフレンドを探しています"]]),
    redirect: "manual",
  });
  if (friendPost.status >= 400) throw new Error(`friend post answered ${friendPost.status}`);

  const admin = await signUp(base, PAGES_ADMIN);
  await verifyAddressFromMail(server, PAGES_ADMIN.email);
  const article = await post(base, "/api/admin/articles", admin, {
    title: "ピカチュウexデッキの組み方",
    category: "guide",
    content: `## 序盤\n**エネルギーの加速**を優先します。\n\n[[card:${give.id}]]\n\n- ベンチに控えを置く\n- 相手のエースを見極める\n\n[公式サイト](https://example.com/)のルールも確認しましょう。`,
    isPublic: true,
  });
  const deckCards = ["A1-096", "A1-104", "A1-105", "A1-106", "PROMO-A-007", "PROMO-A-005", "A1-225", "A1-223", "PROMO-A-002", "PROMO-A-001"].map((cardId) => ({ cardId, count: 2 }));
  const deck = await post(base, "/api/admin/decks", admin, {
    name: "ピカチュウexデッキ",
    tier: 1,
    category: "deck-recipe",
    energyTypes: ["electric"],
    isPublic: true,
    slug: "audit-pikachu-ex",
    description: "## 使い方\n**ピカチュウex**とサンダーexで先攻から攻めます。\n[[card:A1-096]]\n- 雷エネルギーを加速\n",
    cards: deckCards,
    relatedDeckIds: [],
  });
  return { cardId: give.id, offerId: offer.id as string, articleSlug: article.slug as string, deckSlug: deck.slug as string };
}
