/**
 * One CSV field as the site's exports write it (the collection, the account's readable summary,
 * the analytics export): a value starting with = + - @, a tab or a carriage return is defused with
 * a leading ' (a spreadsheet would read it as a formula), and a field holding a comma, a quote, a
 * line break or a defused value is quoted.
 */
export function csvField(value: unknown): string {
  const text = String(value ?? "");
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return /[",\n\r]/.test(safe) || safe !== text ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** One CSV line of fields (without its line break). */
export function csvLine(values: readonly unknown[]): string {
  return values.map(csvField).join(",");
}
