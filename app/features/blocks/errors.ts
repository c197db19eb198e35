import { AppError, type ErrorTable } from "#app/lib/errors.ts";
import type { Params } from "#app/lib/i18n.tsx";
import { blocksMessages } from "./messages";

type BlocksMessageKey = keyof (typeof blocksMessages)["ja"];

/** Every rule blocking can break: HTTP status and the catalogue key of its message. */
const BLOCK_ERRORS = {
  cannot_block_self: [400, "errorCannotBlockSelf"],
  not_found: [404, "errorNotFound"],
} as const satisfies ErrorTable<BlocksMessageKey>;

export type BlockErrorCode = keyof typeof BLOCK_ERRORS;

/** A rule a block request broke (docs/decisions/009). */
export class BlockError extends AppError<BlockErrorCode> {
  constructor(code: BlockErrorCode, params?: Params) {
    super(blocksMessages, BLOCK_ERRORS, code, params);
  }
}
