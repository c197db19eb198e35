import type { ButtonHTMLAttributes } from "react";

/**
 * A form's submit button: disabled (and worded `pendingText`) while the form is being sent, so a
 * second click cannot post twice.
 */
export function SubmitButton({
  pending = false,
  pendingText,
  children,
  disabled,
  wide = false,
  ...button
}: { pending?: boolean; pendingText?: string; wide?: boolean } & Omit<ButtonHTMLAttributes<HTMLButtonElement>, "type" | "className">) {
  const width = wide ? "w-full" : "";
  return (
    <button
      type="submit"
      disabled={pending || disabled}
      aria-busy={pending || undefined}
      className={`${width} rounded-md bg-brand-700 px-5 py-2 font-bold text-white hover:bg-brand-800 disabled:cursor-not-allowed disabled:opacity-60`}
      {...button}
    >
      {pending && pendingText ? pendingText : children}
    </button>
  );
}
