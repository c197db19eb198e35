import { useState, type FormEvent } from "react";
import { formMessage, fieldMessage, refusalOf } from "../../lib/form-refusal";
import { translate, useLocale } from "../../lib/i18n";
import { fieldMessages } from "../../lib/validation";
import type { z } from "../../lib/zod";
import { usersMessages } from "./messages";
import { USERS_FORM } from "./users.schema";

/**
 * Instant feedback with the same zod schema the action uses as its gate: an invalid form is not
 * sent, and the errors appear at their fields. Without JavaScript the server answers the same,
 * as the page refusal `{ code, message, fields? }` in `actionData` (lib/form-refusal.ts): the
 * messages shown are the browser's own check while it has one, the server's otherwise.
 */
export function useClientValidation(schema: z.ZodType, actionData?: unknown) {
  const locale = useLocale();
  const [errors, setErrors] = useState<Record<string, string> | null>(null);
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    const values = Object.fromEntries(new FormData(event.currentTarget));
    const parsed = schema.safeParse(values);
    if (parsed.success) {
      setErrors(null);
      return;
    }
    event.preventDefault();
    setErrors(fieldMessages(parsed.error, (key, params) => translate(usersMessages, locale, key, params), usersMessages.ja, USERS_FORM));
  };
  const refusal = refusalOf(actionData);
  return {
    onSubmit,
    /** Whether the browser's own check is what the form shows now. */
    clientChecked: errors !== null,
    /** The refusal the server answered, if any. */
    refusal,
    /** The message above the form. */
    formText: errors ? errors.form : formMessage(refusal),
    /** The message at `field`. */
    fieldText: (field: string) => (errors ? errors[field] : fieldMessage(refusal, field)),
  };
}
