import { spawn, spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import type { Browser } from "playwright-core";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, newContext, watchConsole } from "#tests/support/browser.ts";
import { call, chatSocket, http, signUp, type ChatClient } from "#tests/support/instances.ts";
import { startServer, type RunningServer } from "#tests/support/server.ts";
import { createSharedDatabase } from "#tests/support/shared-database.ts";
import { signUpVerified } from "#tests/support/verified-account.ts";

/**
 * Backup → wipe → restore on the built server, as an operator does it: `npm run db:backup` while
 * the server runs, the server stopped, the data gone, `npm run db:restore <file>`, the server
 * started again — and the players log in and find their accounts, offer, chat room and the
 * administrator's upload as they were when the backup was made.
 */
const root = path.resolve(import.meta.dirname, "../..");
const PASSWORD = "chat-password-1";
const ADMIN = { email: "backup-admin@example.com", password: "backup-admin-password", name: "バックアップ管理者" };

let browser: Browser;
const servers: RunningServer[] = [];
const sockets: ChatClient[] = [];
const cleanups: (() => Promise<void> | void)[] = [];

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  for (const s of sockets) s.close();
  for (const s of servers) await s.stop();
  for (const cleanup of cleanups.reverse()) await cleanup();
  await browser?.close();
});

/** An npm script of the project, as an operator runs it (its own process, the server's configuration). */
function npmRun(script: string, args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
  delete childEnv.npm_config_force;
  return new Promise((resolve) => {
    const child = spawn("npm", ["run", "--silent", script, "--", ...args], { cwd: root, env: childEnv, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    child.once("close", (code) => resolve({ code, stdout, stderr }));
  });
}

type Site = {
  players: { name: string; email: string }[];
  offerId: string;
  comment: string;
  roomId: string;
  message: string;
  uploadUrl: string;
  upload: Buffer;
};

/** Two players, an offer, a chat room with a message, and an administrator's upload. */
async function makeSite(server: RunningServer): Promise<Site> {
  const tag = Math.random().toString(36).slice(2, 8);
  const owner = await signUp(server, `出品者${tag}`);
  const partner = await signUp(server, `相手${tag}`);
  const cards = (await (await http(server, `/api/cards?pack=pikachu&rarity=${encodeURIComponent("◆◆◆◆")}&limit=2`)).json()) as { cards: { id: string }[] };
  const comment = `バックアップ前の募集 ${tag}`;
  const offer = await http(server, "/api/trades", { cookie: owner.cookie, json: { give: [{ cardId: cards.cards[0].id, count: 1 }], want: [{ cardId: cards.cards[1].id, count: 1 }], comment } });
  expect(offer.status).toBe(201);
  const { id: offerId } = (await offer.json()) as { id: string };
  const responded = await http(server, `/api/trades/${offerId}`, { cookie: partner.cookie, json: { action: "respond" } });
  const { roomId } = (await responded.json()) as { roomId: string };
  const socket = await chatSocket(server, owner.cookie, sockets);
  expect(await call(socket, "chat:join", { roomId })).toMatchObject({ ok: true });
  const message = `復元されるメッセージ ${tag}`;
  expect(await call(socket, "chat:send", { roomId, clientId: `backup-${tag}`, body: message })).toMatchObject({ ok: true });
  socket.close();

  const admin = await signUpVerified(server, ADMIN);
  const png = await sharp({ create: { width: 16, height: 16, channels: 3, background: "#3366cc" } }).png().toBuffer();
  const form = new FormData();
  form.append("file", new Blob([new Uint8Array(png)], { type: "image/png" }), "cover.png");
  const uploaded = await fetch(`${server.url}/api/admin/uploads`, { method: "POST", headers: { origin: server.url, cookie: admin }, body: form });
  expect(uploaded.status).toBe(201);
  const { url: uploadUrl } = (await uploaded.json()) as { url: string };
  const upload = Buffer.from(await (await fetch(new URL(uploadUrl, server.url))).arrayBuffer());
  return { players: [owner, partner].map((p, i) => ({ name: i === 0 ? `出品者${tag}` : `相手${tag}`, email: p.email })), offerId, comment, roomId, message, uploadUrl, upload };
}

/** Each player logs in through the login page and opens the offer and the chat room; the upload answers with the same bytes. */
async function checkSite(server: RunningServer, site: Site, after: { offerId: string }): Promise<void> {
  for (const player of site.players) {
    const context = await newContext(browser);
    const page = await context.newPage();
    const problems = watchConsole(page);
    await page.goto(`${server.url}/login`);
    await page.getByLabel("メールアドレス").fill(player.email);
    await page.getByLabel("パスワード", { exact: true }).fill(PASSWORD);
    await page.getByRole("button", { name: "ログイン", exact: true }).click();
    await page.waitForURL((url) => url.pathname !== "/login");
    await page.goto(`${server.url}/trades/${site.offerId}`);
    await expect.poll(() => page.getByText(site.comment).count()).toBeGreaterThan(0);
    await page.goto(`${server.url}/chat/${site.roomId}`);
    await expect.poll(() => page.getByText(site.message).count()).toBeGreaterThan(0);
    expect(problems).toEqual([]);
    await context.close();
  }
  const upload = await fetch(new URL(site.uploadUrl, server.url));
  expect(upload.status).toBe(200);
  expect(Buffer.from(await upload.arrayBuffer())).toEqual(site.upload);
  // What was written after the backup is not there.
  expect((await fetch(`${server.url}/trades/${after.offerId}`)).status).toBe(404);
}

/** One backup → restore --force → wipe → restore round on a server started with `env`. */
async function backupAndRestore(env: Record<string, string>, wipeDatabase: () => Promise<void>): Promise<void> {
  const dataDir = path.join(mkdtempSync(path.join(tmpdir(), "torepoke-backup-e2e-")), "data");
  cleanups.push(() => rmSync(path.dirname(dataDir), { recursive: true, force: true }));
  const config = { ...env, DATA_DIR: dataDir, ADMIN_EMAILS: ADMIN.email, BACKUP_HOUR: "off" };
  let server = await startServer(config);
  servers.push(server);
  const site = await makeSite(server);

  const backup = await npmRun("db:backup", [], config);
  expect(backup.stderr).toBe("");
  expect(backup.code).toBe(0);
  const file = /^Backup written: (\S+) /m.exec(backup.stdout)?.[1];
  expect(file && existsSync(file)).toBe(true);
  if (!env.DATABASE_URL) expect(backup.stdout).toContain("made by the running server");

  // After the backup: an offer the restore takes away again.
  const later = await signUp(server, "後から来た人");
  const cards = (await (await http(server, `/api/cards?pack=pikachu&rarity=${encodeURIComponent("◆◆◆◆")}&limit=2`)).json()) as { cards: { id: string }[] };
  const afterOffer = await http(server, "/api/trades", { cookie: later.cookie, json: { give: [{ cardId: cards.cards[1].id, count: 1 }], want: [{ cardId: cards.cards[0].id, count: 1 }], comment: "" } });
  const { id: afterOfferId } = (await afterOffer.json()) as { id: string };

  if (!env.DATABASE_URL) {
    // The server holds the embedded database: no restore under it.
    const running = await npmRun("db:restore", [file!, "--force"], config);
    expect(running.code).toBe(1);
    expect(running.stderr).toMatch(/^the server is running \(process \d+ holds .*db\.lock\): stop it before restoring$/m);
  }
  expect(await server.stop()).toBe(0);

  // Over the data as it is now: only with --force, and the old data is kept.
  const refused = await npmRun("db:restore", [file!], config);
  expect(refused.code).toBe(1);
  expect(refused.stderr).toMatch(/run again with --force to replace/);
  const forced = await npmRun("db:restore", [file!, "--force"], config);
  expect(forced.stderr).toBe("");
  expect(forced.code).toBe(0);
  expect(forced.stdout).toMatch(/^Restored /);
  expect(readdirSync(path.dirname(dataDir)).some((name) => name.startsWith("data.before-restore-"))).toBe(true);
  server = await startServer({ ...config, SEED_CATALOGUE: "never" });
  servers.push(server);
  await checkSite(server, site, { offerId: afterOfferId });
  expect(await server.stop()).toBe(0);

  // Everything gone (the backup kept elsewhere): restored without --force.
  const kept = path.join(path.dirname(dataDir), "kept.tar.gz");
  copyFileSync(file!, kept);
  for (const name of readdirSync(path.dirname(dataDir)).filter((n) => n.startsWith("data"))) rmSync(path.join(path.dirname(dataDir), name), { recursive: true });
  await wipeDatabase();
  const restored = await npmRun("db:restore", [kept], config);
  expect(restored.stderr).toBe("");
  expect(restored.code).toBe(0);
  server = await startServer({ ...config, SEED_CATALOGUE: "never" });
  servers.push(server);
  await checkSite(server, site, { offerId: afterOfferId });
  expect(await server.stop()).toBe(0);
}

describe("backup, wipe, restore", () => {
  it("the embedded database: accounts, the offer, the chat room and the upload come back", { timeout: 150_000 }, async () => {
    await backupAndRestore({}, async () => {});
  });

  const adminUrl = process.env.TEST_DATABASE_URL;
  const hasPgDump = spawnSync("pg_dump", ["--version"]).status === 0;
  it.runIf(adminUrl && hasPgDump)("PostgreSQL (pg_dump, pg_restore) with local uploads: the same", { timeout: 150_000 }, async () => {
    const database = await createSharedDatabase(adminUrl!, "torepoke_backup_e2e");
    cleanups.push(database.drop);
    const name = new URL(database.url).pathname.slice(1);
    await backupAndRestore({ DATABASE_URL: database.url }, async () => {
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      await admin.query(`drop database ${name} with (force)`);
      await admin.query(`create database ${name}`);
      await admin.end();
    });
  });
});
