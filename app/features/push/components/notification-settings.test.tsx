import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { MailNote } from "./notification-settings";

describe("the notification settings' mail note", () => {
  it("states the delay this server is configured with, not a fixed ten minutes", () => {
    expect(renderToStaticMarkup(<MailNote delaySeconds={600} />)).toContain("お知らせが10分たっても未読で");
    expect(renderToStaticMarkup(<MailNote delaySeconds={120} />)).toContain("お知らせが2分たっても未読で");
    expect(renderToStaticMarkup(<MailNote delaySeconds={45} />)).toContain("お知らせが45秒たっても未読で");
    expect(renderToStaticMarkup(<MailNote delaySeconds={45} />)).not.toContain("10分");
  });
});
