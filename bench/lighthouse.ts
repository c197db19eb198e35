// Lighthouse Best Practices (and Accessibility) of the public pages against the built app on
// 127.0.0.1, with Debian's Chromium: `npm run build`, then `npm run lighthouse [paths]`.
// Exits 1 when a page's Best Practices is under 100, naming the audits that cost points.
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { startServer } from "../tests/support/server";

const PATHS = (process.argv[2] ?? "/,/login,/signup,/cards,/trades,/terms,/privacy-policy").split(",");
process.env.CHROME_PATH ??= "/usr/bin/chromium";

const server = await startServer();
const chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROME_PATH,
  chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run"],
});
let failed = false;
try {
  console.log("page            | best practices | accessibility | audits under 1");
  for (const path of PATHS) {
    const result = await lighthouse(`${server.url}${path}`, {
      port: chrome.port,
      output: "json",
      logLevel: "error",
      onlyCategories: ["best-practices", "accessibility"],
      formFactor: "desktop",
      screenEmulation: { mobile: false, width: 1350, height: 940, deviceScaleFactor: 1, disabled: false },
    });
    if (!result) throw new Error(`no result for ${path}`);
    const { categories, audits } = result.lhr;
    const score = (id: string) => Math.round((categories[id]?.score ?? 0) * 100);
    const weak = Object.values(categories)
      .flatMap((c) => c.auditRefs.filter((r) => r.weight > 0).map((r) => audits[r.id]))
      .filter((a) => a && a.score !== null && a.score < 1)
      .map((a) => a.id);
    console.log(`${path.padEnd(15)} | ${String(score("best-practices")).padStart(14)} | ${String(score("accessibility")).padStart(13)} | ${weak.join(", ") || "-"}`);
    if (score("best-practices") < 100) failed = true;
  }
} finally {
  chrome.kill();
  await server.stop();
}
process.exit(failed ? 1 : 0);
