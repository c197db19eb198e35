// The data bench:pages and its profile run share: a board, a signed-in trader with offers whose
// cards are popular (so マッチ has answers), articles (one of about 10,000 characters) and decks,
// seeded through the services and the admin API as the other benches do.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { migrateDatabase, openDatabase } from "#app/db/client.server.ts";
import { seedCatalogue } from "#app/features/cards/catalogue.server.ts";
import { seedTradeOffers } from "#scripts/seed-trades.ts";
import { verifyAddressFromMail } from "#tests/support/verified-account.ts";
import { longArticle, seedBenchTrader } from "./fixtures";
import { postgresTarget, type BenchTarget } from "./support";

export const TRADER = { name: "ベンチ", email: "bench-pages-trader@example.com", password: "bench-pages-trader-pass" };
export const ADMIN = { email: "bench-pages-admin@example.com", password: "bench-pages-admin-pass-26", name: "管理ベンチ" };
export const CARD_PACK = "dialga";

// A real 20-card deck of the catalogue (10 names × 2), as bench:decks.
const DECK_CARDS = ["A1-096", "A1-104", "A1-105", "A1-106", "PROMO-A-007", "PROMO-A-005", "A1-225", "A1-223", "PROMO-A-002", "PROMO-A-001"].map((cardId) => ({ cardId, count: 2 }));
const DECK_DESCRIPTION = "## 使い方\n**ピカチュウex**とサンダーexで先攻から攻めます。\n[[card:A1-096]]\n- 雷エネルギーを加速\n- サカキで打点を上げる\n".repeat(4);

/** Board, trader and the trader's offers, straight through the services before the server starts. */
export async function prepare(target: BenchTarget, dataDir: string, offers: number): Promise<void> {
  const database = await target.open();
  try {
    await migrateDatabase(database);
    await seedCatalogue(database.db);
    const seeded = await seedTradeOffers(database.db, { offers });
    await seedBenchTrader(database.db, dataDir, TRADER, seeded);
    console.log(`[${target.label}] seeded ${seeded.offers} offers by ${seeded.users} users and a trader with 3 offers`);
  } finally {
    await database.close();
  }
}

const cookieOf = (response: Response) =>
  response.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");

/**
 * Articles and decks through the admin API, as a script would; the slugs of the long article and a
 * deck. The admin's address is verified from the link the server mails to its data folder
 * (ADMIN_EMAILS makes an administrator only once the address is verified).
 */
export async function seedContent(server: Parameters<typeof verifyAddressFromMail>[0]): Promise<{ article: string; deck: string; card: string }> {
  const { url } = server;
  const headers = { origin: url, "content-type": "application/json" };
  const up = await fetch(`${url}/api/auth/sign-up/email`, { method: "POST", headers, body: JSON.stringify(ADMIN) });
  if (!up.ok) throw new Error(`sign-up failed: ${up.status} ${await up.text()}`);
  await verifyAddressFromMail(server, ADMIN.email);
  const cookie = cookieOf(up);
  const post = async (endpoint: string, body: Record<string, unknown>) => {
    const res = await fetch(`${url}${endpoint}`, { method: "POST", headers: { ...headers, cookie }, body: JSON.stringify(body) });
    if (res.status !== 201) throw new Error(`${endpoint} answered ${res.status}: ${await res.text()}`);
    return (await res.json()) as { slug: string };
  };
  const cards = (await (await fetch(`${url}/api/cards?pack=pikachu&limit=20`)).json()) as { cards: { id: string }[] };
  const categories = ["news", "maintenance", "event", "guide", "deck-recipe"];
  for (let i = 0; i < 10; i++) await post("/api/admin/articles", { title: `お知らせ ${i + 1}`, category: categories[i % categories.length], content: `短い記事 ${i + 1}。`, isPublic: true });
  const content = longArticle(cards.cards.map((c) => c.id));
  const article = await post("/api/admin/articles", { title: "Pikachu ex デッキ完全攻略", category: "guide", content, isPublic: true, keywords: "ピカチュウ, デッキ", metaDescription: "ピカチュウexデッキの組み方と立ち回り。" });
  let deck = "";
  for (let i = 0; i < 5; i++) {
    const body = { name: `ベンチデッキ${i + 1}`, tier: (i % 4) + 1, category: "deck-recipe", energyTypes: ["electric"], isPublic: true, slug: `bench_pages-${i + 1}`, description: DECK_DESCRIPTION, cards: DECK_CARDS, relatedDeckIds: [] };
    deck = (await post("/api/admin/decks", body)).slug;
  }
  return { article: article.slug, deck, card: cards.cards[0]?.id ?? "A1-094" };
}

export async function signIn(url: string): Promise<string> {
  const response = await fetch(`${url}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: url },
    body: JSON.stringify({ email: TRADER.email, password: TRADER.password }),
  });
  if (!response.ok) throw new Error(`sign-in failed: ${response.status} ${await response.text()}`);
  return cookieOf(response);
}

/** PGlite in a fresh data directory (shared by the seeding above and the server), then PostgreSQL when it answers. */
export async function pageTargets(only: string | undefined): Promise<{ targets: BenchTarget[]; pgliteDir: string }> {
  const targets: BenchTarget[] = [];
  const pgliteDir = mkdtempSync(path.join(tmpdir(), "torepoke-bench-pages-"));
  if (only !== "postgres") {
    targets.push({
      label: "pglite",
      env: { DATA_DIR: pgliteDir },
      open: () => openDatabase({ kind: "pglite", dataDir: path.join(pgliteDir, "db") }),
      cleanup: async () => rmSync(pgliteDir, { recursive: true, force: true }),
    });
  }
  if (only !== "pglite") {
    const postgres = await postgresTarget();
    if (postgres) targets.push(postgres);
  }
  return { targets, pgliteDir };
}
