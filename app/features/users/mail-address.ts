// Mail addresses as the account pages show them; no zod here, so the sign-up page's first load
// does not carry the schemas.

/** Japanese mobile carriers' mail domains, which often refuse mail from unknown senders. */
const CARRIER_DOMAINS = ["docomo.ne.jp", "ezweb.ne.jp", "au.com", "softbank.ne.jp", "i.softbank.jp"];

export function isCarrierAddress(email: string): boolean {
  const domain = email.trim().toLowerCase().split("@").pop() ?? "";
  return CARRIER_DOMAINS.some((d) => domain === d || domain.endsWith(`.${d}`));
}

/** The address part of MAIL_FROM ("トレポケ <no-reply@x>" → "no-reply@x"). */
export function senderAddress(mailFrom: string): string {
  return /<([^>]+)>/.exec(mailFrom)?.[1] ?? mailFrom.trim();
}
