import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { simpleParser } from "mailparser";
import { until } from "./wait";

/** Where a server writes its mails without SMTP_URL; `dataDirs` lists every instance's (any of them may send it). */
type MailingServer = { url: string; dataDir: string; dataDirs?: string[] };

/**
 * Opens the verification link a server mailed to `email` at sign-up, read from the .eml files it
 * writes to DATA_DIR/mail without SMTP_URL (as `npm start` runs). An address on ADMIN_EMAILS makes
 * an administrator only once verified, so every test and bench that needs one goes through here.
 */
export async function verifyAddressFromMail(server: MailingServer, email: string, timeoutMs = 30_000): Promise<void> {
  const mailDirs = (server.dataDirs ?? [server.dataDir]).map((dir) => path.join(dir, "mail"));
  const seen = new Set<string>();
  let link: string | undefined;
  await until(
    async () => {
      const files: string[] = [];
      for (const dir of mailDirs) {
        try {
          files.push(...readdirSync(dir).filter((f) => f.endsWith(".eml")).map((f) => path.join(dir, f)).filter((f) => !seen.has(f)));
        } catch {
          // Not written yet.
        }
      }
      for (const file of files) {
        seen.add(file);
        const mail = await simpleParser(readFileSync(file));
        const to = Array.isArray(mail.to) ? mail.to : [mail.to];
        if (!to.some((a) => a?.value.some((v) => v.address?.toLowerCase() === email.toLowerCase()))) continue;
        link = /https?:\/\/\S+\/api\/auth\/verify-email\?\S+/.exec(mail.text ?? "")?.[0] ?? link;
      }
      return Boolean(link);
    },
    `the verification mail to ${email}`,
    timeoutMs,
  );
  const opened = await fetch(link!, { redirect: "manual" });
  if (opened.status !== 302 || /error=/.test(opened.headers.get("location") ?? "")) {
    throw new Error(`the verification link answered ${opened.status} ${opened.headers.get("location") ?? ""}`);
  }
}

/**
 * Signs up an account through the auth API and verifies its address from the mail (or signs in
 * when it exists already): the session cookie of an administrator when the address is on
 * ADMIN_EMAILS.
 */
export async function signUpVerified(server: MailingServer, account: { email: string; password: string; name: string }): Promise<string> {
  const headers = { origin: server.url, "content-type": "application/json" };
  const up = await fetch(`${server.url}/api/auth/sign-up/email`, { method: "POST", headers, body: JSON.stringify(account) });
  let response = up;
  if (up.ok) {
    await verifyAddressFromMail(server, account.email);
  } else {
    response = await fetch(`${server.url}/api/auth/sign-in/email`, { method: "POST", headers, body: JSON.stringify({ email: account.email, password: account.password }) });
    if (!response.ok) throw new Error(`sign-up answered ${up.status} and sign-in ${response.status}: ${await response.text()}`);
  }
  return response.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
}
