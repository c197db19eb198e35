import { useId, useRef, useState, type ChangeEvent } from "react";
import { send, UnexpectedAnswerError } from "#app/lib/send.ts";
import { z } from "#app/lib/zod.ts";
import { useT } from "#app/lib/i18n.tsx";
import { UPLOAD_ACCEPT, UPLOAD_MAX_BYTES, type UploadFolder } from "#app/features/uploads/rules.ts";
import { uploadsMessages } from "#app/features/uploads/messages.ts";
import type { UploadResult } from "#app/features/uploads/types.ts";

/**
 * A file picker that uploads the chosen image to POST /api/admin/uploads at once and hands the
 * answer to `onUploaded`. Failures show docs/product-rules.md §8's text with the cause (or 不明なエラー).
 */
/** The upload API's answer: the stored image, with its URL. */
const UploadAnswer = z.custom<UploadResult>((value) => typeof value === "object" && value !== null && "url" in value && typeof value.url === "string" && value.url !== "");

export function ImageUploadButton({
  folder,
  onUploaded,
  label,
  failureKey = "uploadFailed",
}: {
  folder: UploadFolder;
  onUploaded: (result: UploadResult) => void;
  label?: string;
  failureKey?: "uploadFailed" | "eyecatchUploadFailed";
}) {
  const t = useT(uploadsMessages);
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function onChange(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    if (!file) return;
    setError(null);
    setBusy(true);
    try {
      if (file.size > UPLOAD_MAX_BYTES) throw new Error(t("errTooLarge", { maxMb: UPLOAD_MAX_BYTES / 1024 / 1024 }));
      const body = new FormData();
      body.set("file", file);
      body.set("folder", folder);
      const sent = await send("/api/admin/uploads", { form: body }, UploadAnswer);
      if (!sent.ok) throw new Error(sent.refusal?.message || "");
      onUploaded(sent.data);
    } catch (cause) {
      const detail = cause instanceof Error && cause.message && !(cause instanceof UnexpectedAnswerError) ? cause.message : t("unknownError");
      console.error(t(failureKey), cause);
      setError(`${t(failureKey)}: ${detail}`);
    } finally {
      setBusy(false);
      if (input.current) input.current.value = "";
    }
  }

  return (
    <div className="space-y-1">
      <label
        htmlFor={id}
        className={`inline-block cursor-pointer rounded-md border border-slate-400 bg-white px-3 py-1.5 text-sm font-medium hover:border-brand-600 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-brand-500 ${busy ? "cursor-wait opacity-70" : ""}`}
      >
        {busy ? t("uploading") : (label ?? t("uploadButton"))}
        <input id={id} ref={input} type="file" accept={UPLOAD_ACCEPT} disabled={busy} onChange={onChange} className="sr-only" />
      </label>
      {error ? (
        <p role="alert" className="text-sm font-medium text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}
