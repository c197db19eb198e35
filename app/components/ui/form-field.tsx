import { useState, type InputHTMLAttributes, type ReactNode, type Ref, type SelectHTMLAttributes, type TextareaHTMLAttributes } from "react";

/**
 * The site's form fields: a label, an optional hint and an error tied to the control
 * (aria-invalid + aria-describedby), so every form reads the same to a screen reader.
 * `FormField` is a text input, `SelectField` a select, `TextareaField` a textarea with a counter.
 */
type FieldProps = { id: string; label: string; hint?: string; error?: string; labelClassName?: string };

const CONTROL =
  "block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-base focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-500/40 aria-[invalid=true]:border-red-600";

function describedBy(id: string, ...parts: [suffix: string, shown: unknown][]): string | undefined {
  return parts.filter(([, shown]) => Boolean(shown)).map(([suffix]) => `${id}-${suffix}`).join(" ") || undefined;
}

function FieldFrame({ id, label, hint, error, labelClassName, children, after }: FieldProps & { children: ReactNode; after?: ReactNode }) {
  return (
    <div className="space-y-1">
      <label htmlFor={id} className={labelClassName ?? "block font-medium"}>
        {label}
      </label>
      {children}
      {after}
      {hint ? (
        <p id={`${id}-hint`} className="text-sm text-slate-600">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="text-sm font-medium text-red-700" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}

export function FormField({ id, label, hint, error, labelClassName, ...input }: FieldProps & InputHTMLAttributes<HTMLInputElement> & { ref?: Ref<HTMLInputElement> }) {
  return (
    <FieldFrame id={id} label={label} hint={hint} error={error} labelClassName={labelClassName}>
      <input id={id} aria-invalid={error ? true : undefined} aria-describedby={describedBy(id, ["hint", hint], ["error", error])} className={CONTROL} {...input} />
    </FieldFrame>
  );
}

export function SelectField({
  id,
  label,
  hint,
  error,
  labelClassName,
  children,
  ...select
}: FieldProps & SelectHTMLAttributes<HTMLSelectElement> & { children: ReactNode }) {
  return (
    <FieldFrame id={id} label={label} hint={hint} error={error} labelClassName={labelClassName}>
      <select id={id} aria-invalid={error ? true : undefined} aria-describedby={describedBy(id, ["hint", hint], ["error", error])} className={CONTROL} {...select}>
        {children}
      </select>
    </FieldFrame>
  );
}

/**
 * A textarea with a live "{count}/{max}" counter under it (`counterText` words it in the
 * reader's language). Works controlled (`value`) or not (`defaultValue`).
 */
export function TextareaField({
  id,
  label,
  hint,
  error,
  labelClassName,
  maxLength,
  counterText = (count, max) => `${count}/${max}`,
  onChange,
  ...textarea
}: FieldProps & TextareaHTMLAttributes<HTMLTextAreaElement> & { maxLength: number; counterText?: (count: number, max: number) => string }) {
  const [typed, setTyped] = useState(String(textarea.defaultValue ?? "").length);
  const count = textarea.value === undefined ? typed : String(textarea.value).length;
  return (
    <FieldFrame
      id={id}
      label={label}
      hint={hint}
      error={error}
      labelClassName={labelClassName}
      after={
        <p id={`${id}-counter`} className="text-right text-xs text-slate-600">
          {counterText(count, maxLength)}
        </p>
      }
    >
      <textarea
        id={id}
        maxLength={maxLength}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, ["counter", true], ["hint", hint], ["error", error])}
        className={CONTROL}
        onChange={(event) => {
          setTyped(event.target.value.length);
          onChange?.(event);
        }}
        {...textarea}
      />
    </FieldFrame>
  );
}
