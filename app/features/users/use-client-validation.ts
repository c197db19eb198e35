import { useRef, useState, type FormEvent } from "react";
import { formMessage, fieldMessage, refusalOf } from "#app/lib/form-refusal.ts";
import { translate, useLocale } from "#app/lib/i18n.tsx";
import { fieldMessages } from "#app/lib/validation.ts";
import type { z } from "#app/lib/zod.ts";
import { usersMessages } from "./messages";
import { USERS_FORM } from "./users-form";

/**
 * Instant feedback with the same zod schema the action uses as its gate: an invalid form is not
 * sent, and the errors appear at their fields. Without JavaScript the server answers the same,
 * as the page refusal `{ code, message, fields? }` in `actionData` (lib/form-refusal.ts): the
 * messages shown are the browser's own check while it has one, the server's otherwise.
 *
 * The schema (and zod with it) is not part of the page's first load: `loadSchema` runs when the
 * form is first focused (`prepare`), and a form sent before it arrived waits for it, is checked,
 * and is sent again with the same submit button when it passes (once, however often it was
 * pressed meanwhile). Should the schema not load, the form is sent unchecked: the action checks it.
 */
export function useClientValidation(loadSchema: () => Promise<z.ZodType>, actionData?: unknown) {
  const locale = useLocale();
  const [errors, setErrors] = useState<Record<string, string> | null>(null);
  const schema = useRef<z.ZodType | null>(null);
  const loading = useRef<Promise<z.ZodType> | null>(null);
  /** A submission is waiting for the schema (a second press while it loads sends nothing more). */
  const waiting = useRef(false);
  /** The schema could not be loaded: the next submission goes to the server, which checks it. */
  const serverOnly = useRef(false);
  const prepare = () => {
    loading.current ??= loadSchema().then(
      (loaded) => (schema.current = loaded),
      (error: unknown) => {
        // Tried again at the next focus or submission (a lost connection, a new deployment).
        loading.current = null;
        throw error;
      },
    );
    return loading.current;
  };
  /** True when the values pass; otherwise shows the errors. */
  const check = (form: HTMLFormElement, loaded: z.ZodType) => {
    const parsed = loaded.safeParse(Object.fromEntries(new FormData(form)));
    if (parsed.success) {
      setErrors(null);
      return true;
    }
    setErrors(fieldMessages(parsed.error, (key, params) => translate(usersMessages, locale, key, params), usersMessages.ja, USERS_FORM));
    return false;
  };
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    const form = event.currentTarget;
    if (schema.current) {
      if (!check(form, schema.current)) event.preventDefault();
      return;
    }
    if (serverOnly.current) {
      serverOnly.current = false;
      return;
    }
    event.preventDefault();
    if (waiting.current) return;
    waiting.current = true;
    const submitter = (event.nativeEvent as SubmitEvent).submitter;
    prepare().then(
      () => {
        waiting.current = false;
        // The schema is kept by now (prepare keeps it first): this submission is checked above, once.
        form.requestSubmit(submitter);
      },
      () => {
        waiting.current = false;
        serverOnly.current = true;
        form.requestSubmit(submitter);
      },
    );
  };
  const refusal = refusalOf(actionData);
  return {
    onSubmit,
    /** For the form's onFocus: starts loading the schema before it is needed. */
    prepare: () => void prepare().catch(() => {}),
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
