// Shared by the server's checks and the browser's early refusal (the file picker).

/** Largest file accepted, checked while the body streams in and again before decoding. */
export const UPLOAD_MAX_BYTES = 10 * 1024 * 1024;
/**
 * Largest picture accepted, in pixels (all frames of an animation together), read from the
 * header before anything is decoded: a decompression bomb is refused, not decoded. 40 MP covers
 * every phone camera.
 */
export const MAX_INPUT_PIXELS = 40_000_000;
/** Folders an upload may go to: inline article images, article thumbnails, deck eyecatches, the site's OG image. */
export const UPLOAD_FOLDERS = ["images", "thumbnails", "eyecatches", "og"] as const;
export type UploadFolder = (typeof UPLOAD_FOLDERS)[number];
/** Folders whose images are also cut to 1200×630 (docs/product-rules.md §2 eyecatch size; the Open Graph size). */
export const WIDE_FOLDERS: readonly UploadFolder[] = ["eyecatches", "og"];
/** Types the picker offers; the server reads the real type from the bytes. */
export const UPLOAD_ACCEPT = "image/jpeg,image/png,image/webp,image/gif,image/avif";
/**
 * Per administrator: an article or deck needs a handful of images, a busy editing session a few
 * dozen; past these an upload is refused with 429 (a script or a stuck retry loop, not a person).
 */
export const UPLOADS_PER_MINUTE = 30;
export const UPLOADS_PER_HOUR = 300;
