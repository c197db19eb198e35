import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { simpleParser } from "mailparser";
import { describe, expect, it } from "vitest";
import { createLogger } from "#app/lib/logger.server.ts";
import { TemporaryDeliveryError } from "#app/features/outbox/outbox.server.ts";
import { classifySmtpError, createMailTransport } from "./mail.server";
import { renderMail } from "./templates.server";

describe("mail without SMTP_URL", () => {
  it("writes each message as a .eml file in DATA_DIR/mail and logs one line naming the file and the link", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "torepoke-mail-"));
    const lines: string[] = [];
    const transport = createMailTransport({ smtpUrl: undefined, mailFrom: "トレポケ <no-reply@localhost.localdomain>", dataDir }, createLogger("info", (l) => lines.push(l)));
    expect(transport.kind).toBe("file");
    const message = renderMail(
      { subject: "メールアドレスの確認", paragraphs: ["下のボタンから確認してください。"], action: { label: "確認する", url: "http://localhost:3000/api/auth/verify-email?token=t1" } },
      { locale: "ja", siteUrl: "http://localhost:3000", to: "trainer@example.com" },
    );
    await transport.send(message);
    const files = readdirSync(path.join(dataDir, "mail"));
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/\.eml$/);
    const mail = await simpleParser(readFileSync(path.join(dataDir, "mail", files[0])));
    expect(mail.subject).toBe("【トレポケ】メールアドレスの確認");
    expect(mail.text).toContain("http://localhost:3000/api/auth/verify-email?token=t1");
    expect(lines).toHaveLength(1);
    const logged = JSON.parse(lines[0]) as Record<string, string>;
    expect(logged).toMatchObject({ msg: "mail written", file: path.join(dataDir, "mail", files[0]), link: "http://localhost:3000/api/auth/verify-email?token=t1" });
  });
});

describe("SMTP errors", () => {
  it("retries 4xx replies and lost connections, and gives up on 5xx replies", () => {
    expect(classifySmtpError({ responseCode: 451, message: "try later" })).toBeInstanceOf(TemporaryDeliveryError);
    expect(classifySmtpError({ code: "ECONNECTION", message: "closed" })).toBeInstanceOf(TemporaryDeliveryError);
    expect(classifySmtpError({ code: "ETIMEDOUT", message: "timeout" })).toBeInstanceOf(TemporaryDeliveryError);
    const permanent = classifySmtpError({ responseCode: 550, message: "no such user" });
    expect(permanent).not.toBeInstanceOf(TemporaryDeliveryError);
    expect(permanent.message).toBe("550 no such user");
  });
});

describe("mail templates", () => {
  it("speaks English to English users and escapes every value in the HTML part", () => {
    const mail = renderMail(
      { subject: "Reset your password", name: `<script>"x"</script>`, paragraphs: ["A & B"], action: { label: "Reset", url: "https://torepoke.example/r?a=1&b=2" } },
      { locale: "en", siteUrl: "https://torepoke.example", to: "a@example.com" },
    );
    expect(mail.subject).toBe("[Torepoke] Reset your password");
    expect(mail.html).toContain("&lt;script&gt;&quot;x&quot;&lt;/script&gt;");
    expect(mail.html).toContain("A &amp; B");
    expect(mail.html).toContain('href="https://torepoke.example/r?a=1&amp;b=2"');
    expect(mail.html).not.toContain("<script>");
    expect(mail.text).toContain("https://torepoke.example/r?a=1&b=2");
    expect(mail.text).toContain("Torepoke (Pokémon TCG Pocket trade board) https://torepoke.example");
  });
});
