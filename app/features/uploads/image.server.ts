import { fileTypeFromBuffer } from "file-type";
import sharp, { type Metadata, type Sharp } from "sharp";
import { UploadError } from "./errors";
import { MAX_INPUT_PIXELS, UPLOAD_MAX_BYTES } from "./rules";

/** Every stored image is at most this wide (docs/architecture.md "Content: formatter, uploads, site settings and the SEO head"). */
export const MAX_WIDTH = 1600;
/** docs/product-rules.md §2: eyecatch recommended size, also the Open Graph image size. */
export const EYECATCH_SIZE = { width: 1200, height: 630 } as const;

/** Types read from the bytes that may be uploaded. SVG (scriptable) and everything else are refused. */
const ACCEPTED = new Set(["image/jpeg", "image/png", "image/webp", "image/gif", "image/avif"]);

export type EncodedImage = { data: Buffer; width: number; height: number; contentType: "image/webp" };

/**
 * Checks an upload and re-encodes it: the type from its bytes, its pixel count from its header,
 * then sharp applies the EXIF orientation, drops every metadata block (EXIF, GPS, XMP, ICC
 * comments), scales it to at most MAX_WIDTH wide and writes WebP. Re-encoding also turns a
 * polyglot (an image that is also HTML or a script) into plain pixels. An animated GIF or WebP
 * stays animated. With `eyecatch`, a 1200×630 crop is made as well.
 */
export async function encodeImage(bytes: Buffer, options: { eyecatch?: boolean } = {}): Promise<{ image: EncodedImage; eyecatch: EncodedImage | null }> {
  if (bytes.length > UPLOAD_MAX_BYTES) throw new UploadError("too_large");
  const type = await fileTypeFromBuffer(bytes);
  if (!type || !ACCEPTED.has(type.mime)) throw new UploadError("unsupported_type");

  let metadata: Metadata;
  try {
    metadata = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    throw new UploadError("unreadable");
  }
  const width = metadata.width ?? 0;
  const height = metadata.pageHeight ?? metadata.height ?? 0;
  const pages = metadata.pages ?? 1;
  if (width <= 0 || height <= 0) throw new UploadError("unreadable");
  // An animation decodes every frame: the limit counts them all.
  if (width * height * pages > MAX_INPUT_PIXELS) throw new UploadError("too_many_pixels");

  const animated = pages > 1;
  const input = (frames: boolean) => sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS, animated: frames, failOn: "error" });
  try {
    const image = await toWebp(input(animated).rotate().resize({ width: MAX_WIDTH, withoutEnlargement: true }), animated);
    const eyecatch = options.eyecatch
      ? await toWebp(input(false).rotate().resize({ ...EYECATCH_SIZE, fit: "cover", position: sharp.strategy.attention }), false)
      : null;
    return { image, eyecatch };
  } catch (error) {
    if (error instanceof UploadError) throw error;
    throw new UploadError("unreadable");
  }
}

async function toWebp(pipeline: Sharp, animated: boolean): Promise<EncodedImage> {
  const { data, info } = await pipeline.webp({ quality: 82, effort: 4 }).toBuffer({ resolveWithObject: true });
  // For an animation sharp reports the height of all frames stacked; a page shows one frame.
  const height = animated && info.pageHeight ? info.pageHeight : info.height;
  return { data, width: info.width, height, contentType: "image/webp" };
}
