// `npm test`: everything a newcomer needs to trust the build, in order, stopping at the first
// failure: browser prerequisites (and pg_dump/pg_restore when TEST_DATABASE_URL is set, nginx when
// TEST_REDIS_URL is too), typecheck, lint, unit + integration (PGlite, and PostgreSQL when
// TEST_DATABASE_URL is set), build, then browser end-to-end tests against the built app.
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

const canApt = typeof process.getuid === "function" && process.getuid() === 0 && existsSync("/usr/bin/apt-get");
let aptUpdated = false;
/**
 * Installs Debian packages. `optional`: a failure (no network, a broken mirror) only says which
 * tests are skipped, instead of ending the run; the browser tests' Chromium is not optional.
 */
function aptInstall(title, packages, options = {}) {
  if (!options.optional) {
    if (!aptUpdated) run("apt-get update", "apt-get", ["update", "-qq"]);
    aptUpdated = true;
    run(title, "apt-get", ["install", "-y", "-qq", ...packages], { DEBIAN_FRONTEND: "noninteractive" });
    return true;
  }
  process.stdout.write(`\n▶ ${title}\n`);
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  const updated = aptUpdated || spawnSync("apt-get", ["update", "-qq"], { stdio: "inherit", env }).status === 0;
  aptUpdated ||= updated;
  const installed = updated && spawnSync("apt-get", ["install", "-y", "-qq", ...packages], { stdio: "inherit", env }).status === 0;
  process.stdout.write(installed ? `✓ ${title}\n` : `✗ ${title} failed: ${options.optional}\n`);
  return installed;
}

function ensureBrowser() {
  if (existsSync(CHROMIUM) && fontsInstalled()) return;
  if (canApt) {
    aptInstall("install chromium and Japanese fonts", ["chromium", "fonts-noto-cjk", "fonts-noto-color-emoji"]);
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

// The PostgreSQL backup tests (tests/*/backups.test.ts) run pg_dump and pg_restore; without
// them those tests are skipped, which is said here rather than hidden.
function ensurePostgresClient() {
  const installed = ["pg_dump", "pg_restore"].every((tool) => spawnSync(tool, ["--version"]).status === 0);
  if (!process.env.TEST_DATABASE_URL || installed) return;
  if (canApt) {
    aptInstall("install postgresql-client", ["postgresql-client"], { optional: "the PostgreSQL backup tests are skipped" });
    return;
  }
  process.stderr.write(
    "pg_dump and pg_restore were not found: the PostgreSQL backup tests are skipped. Install postgresql-client\n(Debian/Ubuntu: sudo apt-get install -y postgresql-client) to run them.\n",
  );
}

// The rolling-deploy test (tests/e2e/rolling-deploy.test.ts) runs its own nginx, on a port of its
// own, in front of two instances; it needs PostgreSQL and Redis, and is skipped without nginx.
// Only the package: a system nginx it may start is neither used nor stopped by the test.
function ensureProxy() {
  if (!process.env.TEST_DATABASE_URL || !process.env.TEST_REDIS_URL) return;
  if (["/usr/sbin/nginx", "/usr/local/sbin/nginx"].some((file) => existsSync(file))) return;
  if (canApt) {
    aptInstall("install nginx", ["nginx"], { optional: "the rolling-deploy test is skipped" });
    return;
  }
  process.stderr.write("nginx was not found: the rolling-deploy test is skipped. Install it (Debian/Ubuntu: sudo apt-get install -y nginx) to run it.\n");
}

ensureBrowser();
ensurePostgresClient();
ensureProxy();
run("typecheck", "npm", ["run", "--silent", "typecheck"]);
run("lint", "npm", ["run", "--silent", "lint"]);
vitest("unit and integration tests", [], "unit-integration");
run("build", "npm", ["run", "--silent", "build"]);
vitest("browser end-to-end tests", ["--config", "vitest.e2e.config.ts"], "e2e");
process.stdout.write(`\nAll checks passed in ${((Date.now() - started) / 1000).toFixed(0)} s.\n`);
process.stdout.write(`tests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped\n`);
