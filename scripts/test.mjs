// `npm test`: everything a newcomer needs to trust the build, in order, stopping at the first
// failure: browser prerequisites, typecheck, lint, unit + integration (PGlite, and PostgreSQL
// when TEST_DATABASE_URL is set), build, then browser end-to-end tests against the built app.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const started = Date.now();

function run(title, command, args, env = {}) {
  process.stdout.write(`\n▶ ${title}\n`);
  const t = Date.now();
  const result = spawnSync(command, args, { stdio: "inherit", env: { ...process.env, ...env } });
  if (result.status !== 0) {
    process.stdout.write(`\n✗ ${title} failed (exit ${result.status ?? result.signal})\n`);
    process.exit(result.status || 1);
  }
  process.stdout.write(`✓ ${title} (${((Date.now() - t) / 1000).toFixed(1)} s)\n`);
}

function fontsInstalled() {
  // Japanese text and the 👑 rarity must render, or screenshots and axe colour checks lie.
  const r = spawnSync("fc-list", [], { encoding: "utf8" });
  return r.status === 0 && /Noto Sans CJK JP/i.test(r.stdout) && /Noto Color Emoji/i.test(r.stdout);
}

function ensureBrowser() {
  if (existsSync(CHROMIUM) && fontsInstalled()) return;
  const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
  const hasApt = existsSync("/usr/bin/apt-get");
  if (isRoot && hasApt) {
    run("apt-get update", "apt-get", ["update", "-qq"]);
    run("install chromium and Japanese fonts", "apt-get", ["install", "-y", "-qq", "chromium", "fonts-noto-cjk", "fonts-noto-color-emoji"], {
      DEBIAN_FRONTEND: "noninteractive",
    });
    return;
  }
  process.stderr.write(
    "Browser tests need Chromium and Japanese fonts. Install them, for example on Debian/Ubuntu:\n" +
      "  sudo apt-get install -y chromium fonts-noto-cjk fonts-noto-color-emoji\n" +
      "or point CHROMIUM_PATH at a Chromium binary.\n",
  );
  process.exit(1);
}

ensureBrowser();
run("typecheck", "npm", ["run", "--silent", "typecheck"]);
run("lint", "npm", ["run", "--silent", "lint"]);
run("unit and integration tests", "npx", ["vitest", "run"]);
run("build", "npm", ["run", "--silent", "build"]);
run("browser end-to-end tests", "npx", ["vitest", "run", "--config", "vitest.e2e.config.ts"]);
process.stdout.write(`\nAll checks passed in ${((Date.now() - started) / 1000).toFixed(0)} s.\n`);
