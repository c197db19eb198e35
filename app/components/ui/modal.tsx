import { useEffect, useId, useRef, type ReactNode } from "react";

/**
 * A modal dialog on the native <dialog> element: `showModal()` makes the rest of the page inert
 * (focus and clicks stay inside, screen readers see only the dialog), Escape closes it through
 * `onClose`, and it is labelled by its visible title. The opener gets the focus back when it
 * closes (the browser does this for showModal).
 *
 * `maxHeight` caps the dialog (e.g. "80vh", docs/product-rules.md §2's related picker); the body scrolls.
 */
export function Modal({
  title,
  onClose,
  children,
  footer,
  maxHeight = "90vh",
  size = "md",
  initialFocus,
}: {
  title: string;
  onClose: () => void;
  children: ReactNode;
  footer?: ReactNode;
  maxHeight?: string;
  size?: "sm" | "md" | "lg";
  /** A selector inside the dialog that gets the focus first (default: the first focusable). */
  initialFocus?: string;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const close = useRef(onClose);
  close.current = onClose;

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (!dialog.open) dialog.showModal();
    if (initialFocus) dialog.querySelector<HTMLElement>(initialFocus)?.focus();
    // Escape fires "cancel": the parent decides (it unmounts us), the browser does not close alone.
    const onCancel = (event: Event) => {
      event.preventDefault();
      close.current();
    };
    dialog.addEventListener("cancel", onCancel);
    return () => {
      dialog.removeEventListener("cancel", onCancel);
      if (dialog.open) dialog.close();
    };
  }, [initialFocus]);

  const width = size === "sm" ? "max-w-md" : size === "lg" ? "max-w-3xl" : "max-w-xl";
  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      style={{ maxHeight }}
      className={`m-auto w-[calc(100%-2rem)] ${width} flex-col rounded-xl border border-slate-200 bg-white p-0 text-slate-900 shadow-2xl backdrop:bg-slate-900/50 open:flex`}
      // A click on the backdrop (the dialog element itself, outside its box) closes it.
      onClick={(event) => {
        if (event.target === ref.current) close.current();
      }}
    >
      <div className="flex items-center justify-between gap-4 border-b border-slate-200 px-5 py-3">
        <h2 id={titleId} className="text-lg font-bold">
          {title}
        </h2>
      </div>
      <div className="min-h-0 flex-1 overflow-y-auto px-5 py-4">{children}</div>
      {footer ? <div className="flex flex-wrap justify-end gap-2 border-t border-slate-200 px-5 py-3">{footer}</div> : null}
    </dialog>
  );
}

/** The dialogs' buttons: a primary action and a quiet one. */
export const BUTTON_PRIMARY =
  "rounded-md bg-brand-700 px-4 py-2 font-bold text-white hover:bg-brand-800 disabled:cursor-not-allowed disabled:bg-slate-400";
export const BUTTON_SECONDARY = "rounded-md border border-slate-400 bg-white px-4 py-2 font-medium text-slate-800 hover:border-brand-600";
/** A destructive action's button (削除). */
export const BUTTON_DANGER = "rounded-md bg-red-700 px-4 py-2 font-bold text-white hover:bg-red-800 disabled:cursor-not-allowed disabled:bg-slate-400";

/**
 * The one confirmation before a destructive action (a delete): a small modal with the question,
 * a quiet cancel and the red confirm button. Escape, a backdrop click and cancel all call
 * `onCancel`; while `busy` (the action under way) both buttons are disabled and Escape does
 * nothing, so the dialog cannot be closed and another opened before the action has finished.
 */
export function ConfirmDialog({
  title,
  children,
  confirmLabel,
  cancelLabel,
  onConfirm,
  onCancel,
  busy = false,
}: {
  title: string;
  children: ReactNode;
  confirmLabel: string;
  cancelLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
  busy?: boolean;
}) {
  return (
    <Modal
      title={title}
      size="sm"
      onClose={() => {
        if (!busy) onCancel();
      }}
      footer={
        <>
          <button type="button" className={BUTTON_SECONDARY} disabled={busy} onClick={onCancel}>
            {cancelLabel}
          </button>
          <button type="button" className={BUTTON_DANGER} disabled={busy} onClick={onConfirm}>
            {confirmLabel}
          </button>
        </>
      }
    >
      {children}
    </Modal>
  );
}
