import { AppError, type ErrorTable } from "#app/lib/errors.ts";
import { MAX_INPUT_PIXELS, UPLOAD_MAX_BYTES } from "./rules";
import { uploadsMessages } from "./messages";

type UploadsMessageKey = keyof (typeof uploadsMessages)["ja"];

/** Every way an upload is refused: HTTP status and the catalogue key of its message. */
const UPLOAD_ERRORS = {
  no_file: [400, "errNoFile"],
  bad_folder: [400, "errBadFolder"],
  too_large: [413, "errTooLarge"],
  too_many_pixels: [413, "errTooManyPixels"],
  unsupported_type: [415, "errUnsupportedType"],
  unreadable: [415, "errUnreadable"],
  rate_limited: [429, "errRateLimited"],
  busy: [503, "errBusy"],
} as const satisfies ErrorTable<UploadsMessageKey>;

export type UploadErrorCode = keyof typeof UPLOAD_ERRORS;

/** Why an upload was refused (docs/decisions/009); withJsonErrors answers it as `{"error","code"}`. */
export class UploadError extends AppError<UploadErrorCode> {
  constructor(code: UploadErrorCode) {
    super(uploadsMessages, UPLOAD_ERRORS, code, {
      maxMb: UPLOAD_MAX_BYTES / 1024 / 1024,
      maxMegapixels: MAX_INPUT_PIXELS / 1_000_000,
      maxManPixels: MAX_INPUT_PIXELS / 10_000,
    });
  }
}
