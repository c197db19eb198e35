import { pageError } from "./api.server";
import { AppError } from "./errors";
import { localeFromRequest } from "./i18n";
import { readInput } from "./input.server";
import { z } from "./zod";

const AnyForm = z.instanceof(FormData);

/**
 * The submitted form of a page action, read by the one input reader (lib/input.server.ts): a body
 * that is not a form (JSON, garbage, a wrong content type) or is past the path's limit is the
 * client's mistake, thrown as route error data `{code, message}` (400 / 413) for the error
 * boundary instead of the parser's exception becoming a 500.
 */
export async function readFormData(request: Request): Promise<FormData> {
  try {
    return await readInput(request, AnyForm, { accept: ["form", "multipart"], fromForm: (form) => form });
  } catch (error) {
    if (error instanceof AppError) throw pageError(error, localeFromRequest(request));
    throw error;
  }
}
