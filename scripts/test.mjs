// `npm test`: everything a newcomer needs to trust the build, in order, stopping at the first
// failure: browser prerequisites, typecheck, lint, unit + integration (PGlite, and PostgreSQL
// when TEST_DATABASE_URL is set), build, then browser end-to-end tests against the built app.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

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

// Each vitest run also writes a JSON report, so the closing line can count every test.
const reports = mkdtempSync(path.join(tmpdir(), "torepoke-test-"));
const totals = { passed: 0, failed: 0, skipped: 0 };
function vitest(title, args, name) {
  const file = path.join(reports, `${name}.json`);
  run(title, "npx", ["vitest", "run", ...args, "--reporter=default", "--reporter=json", `--outputFile.json=${file}`]);
  const report = JSON.parse(readFileSync(file, "utf8"));
  totals.passed += report.numPassedTests;
  totals.failed += report.numFailedTests;
  totals.skipped += report.numPendingTests + report.numTodoTests;
}

ensureBrowser();
run("typecheck", "npm", ["run", "--silent", "typecheck"]);
run("lint", "npm", ["run", "--silent", "lint"]);
vitest("unit and integration tests", [], "unit-integration");
run("build", "npm", ["run", "--silent", "build"]);
vitest("browser end-to-end tests", ["--config", "vitest.e2e.config.ts"], "e2e");
process.stdout.write(`\nAll checks passed in ${((Date.now() - started) / 1000).toFixed(0)} s.\n`);
process.stdout.write(`tests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped\n`);
