import type { Locale } from "../../lib/i18n";
import { translate } from "../../lib/i18n";
import { uploadsMessages } from "./messages";
import { MAX_INPUT_PIXELS, UPLOAD_MAX_BYTES } from "./limits";

export type UploadErrorCode = "no_file" | "bad_folder" | "too_large" | "too_many_pixels" | "unsupported_type" | "unreadable";

const STATUS: Record<UploadErrorCode, number> = {
  no_file: 400,
  bad_folder: 400,
  too_large: 413,
  too_many_pixels: 413,
  unsupported_type: 415,
  unreadable: 415,
};

const MESSAGE_KEY = {
  no_file: "errNoFile",
  bad_folder: "errBadFolder",
  too_large: "errTooLarge",
  too_many_pixels: "errTooManyPixels",
  unsupported_type: "errUnsupportedType",
  unreadable: "errUnreadable",
} as const satisfies Record<UploadErrorCode, keyof (typeof uploadsMessages)["ja"]>;

/** Why an upload was refused; the route answers `{"error"}` with `status` and the Japanese text. */
export class UploadError extends Error {
  override name = "UploadError";
  constructor(readonly code: UploadErrorCode) {
    super(code);
  }

  get status(): number {
    return STATUS[this.code];
  }

  describe(locale: Locale): string {
    return translate(uploadsMessages, locale, MESSAGE_KEY[this.code], {
      maxMb: UPLOAD_MAX_BYTES / 1024 / 1024,
      maxMegapixels: MAX_INPUT_PIXELS / 1_000_000,
      maxManPixels: MAX_INPUT_PIXELS / 10_000,
    });
  }
}
