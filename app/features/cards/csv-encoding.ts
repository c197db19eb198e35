/**
 * Text of an uploaded CSV file. UTF-8 (with or without BOM) when the bytes are valid UTF-8,
 * otherwise Shift_JIS/CP932 as Excel saves it in Japan (the WHATWG "shift_jis" decoder is
 * CP932). Runs in the browser before upload and on the server alike.
 */
export function decodeCsvBytes(bytes: Uint8Array): string {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder("shift_jis").decode(bytes);
  }
}
