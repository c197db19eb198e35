import { UploadError } from "./errors";

// Room for the multipart envelope (boundaries, part headers, the folder field) around the file.
const ENVELOPE_BYTES = 64 * 1024;

/**
 * Reads a multipart body while counting its bytes: past `maxFileBytes` (+ the envelope) the
 * stream is cancelled and the upload refused with 413, so a huge body is never read in full or
 * held in memory. A declared Content-Length over the limit is refused before reading anything.
 * This route's own limit, larger than the site's default body limit.
 */
export async function readLimitedFormData(request: Request, maxFileBytes: number): Promise<FormData> {
  const limit = maxFileBytes + ENVELOPE_BYTES;
  const contentType = request.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data\s*;\s*boundary=/i.test(contentType)) throw new UploadError("no_file");
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > limit) throw new UploadError("too_large");
  if (!request.body) throw new UploadError("no_file");
  let size = 0;
  const counted = request.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        size += chunk.byteLength;
        if (size > limit) controller.error(new UploadError("too_large"));
        else controller.enqueue(chunk);
      },
    }),
  );
  try {
    return await new Response(counted, { headers: { "content-type": contentType } }).formData();
  } catch (error) {
    if (size > limit) throw new UploadError("too_large");
    if (error instanceof UploadError) throw error;
    throw new UploadError("no_file");
  }
}
