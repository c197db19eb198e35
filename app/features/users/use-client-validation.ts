import { useState, type FormEvent } from "react";
import type { z } from "../../lib/zod";
import { fieldErrors, type FieldErrors } from "./users.schema";

/**
 * Instant feedback with the same zod schema the action uses as its gate: an invalid form is not
 * sent, and the errors appear at their fields. Without JavaScript the server answers the same.
 */
export function useClientValidation<F extends string>(schema: z.ZodType) {
  const [errors, setErrors] = useState<FieldErrors<F> | null>(null);
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    const values = Object.fromEntries(new FormData(event.currentTarget));
    const parsed = schema.safeParse(values);
    if (parsed.success) {
      setErrors(null);
      return;
    }
    event.preventDefault();
    setErrors(fieldErrors<F>(parsed.error));
  };
  return { clientErrors: errors, onSubmit, clearClientErrors: () => setErrors(null) };
}
