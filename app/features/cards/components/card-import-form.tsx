import { useId, useRef, useState, type FormEvent } from "react";
import { send, UnexpectedAnswerError } from "../../../lib/send";
import { z } from "../../../lib/zod";
import { FormField } from "../../../components/ui/form-field";
import { SubmitButton } from "../../../components/ui/submit-button";
import { useT } from "../../../lib/i18n";
import { decodeCsvBytes } from "../csv-encoding";
import { cardAdminMessages } from "../admin-messages";

// Same limit as the server (import.server.ts): refuse before uploading.
const MAX_FILE_BYTES = 5 * 1024 * 1024;

type Outcome = { kind: "success" | "error"; text: string } | null;

/**
 * Admin カード管理 tab (docs/product-rules.md §2 item 4): pack id as the title, a CSV file, and a button
 * that shows 処理中... while uploading. The file is decoded in the browser (UTF-8 or
 * Shift_JIS from Excel) and sent as text to POST /api/admin/cards/import.
 */
/** The import API's answer: how many cards it stored. */
const ImportAnswer = z.object({ count: z.number().catch(0) });

export function CardImportForm() {
  const t = useT(cardAdminMessages);
  const id = useId();
  const fileInput = useRef<HTMLInputElement>(null);
  const [title, setTitle] = useState("");
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const file = fileInput.current?.files?.[0];
    if (!title.trim() || !file) {
      setOutcome({ kind: "error", text: t("importMissingInputs") });
      return;
    }
    if (file.size > MAX_FILE_BYTES) {
      setOutcome({ kind: "error", text: t("importFailed", { message: t("importFileTooLarge", { max: 5 }) }) });
      return;
    }
    setBusy(true);
    setOutcome(null);
    try {
      const csvData = decodeCsvBytes(new Uint8Array(await file.arrayBuffer()));
      const sent = await send("/api/admin/cards/import", { json: { title: title.trim(), csvData } }, ImportAnswer);
      if (!sent.ok) throw new Error(sent.refusal?.message || t("importUploadFailed"));
      setOutcome({ kind: "success", text: t("importSuccess", { count: sent.data.count }) });
      if (fileInput.current) fileInput.current.value = "";
    } catch (error) {
      const message = error instanceof Error && error.message && !(error instanceof UnexpectedAnswerError) ? error.message : t("importUnknownError");
      setOutcome({ kind: "error", text: t("importFailed", { message }) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <section aria-labelledby={`${id}-heading`} className="space-y-4">
      <h2 id={`${id}-heading`} className="text-lg font-bold">
        {t("importHeading")}
      </h2>
      <form onSubmit={onSubmit} noValidate className="space-y-4 rounded-lg border border-slate-200 bg-white p-4">
        <FormField
          id={`${id}-title`}
          name="title"
          type="text"
          label={t("importTitle")}
          value={title}
          onChange={(event) => setTitle(event.target.value)}
          placeholder={t("importTitlePlaceholder")}
          autoComplete="off"
        />
        <FormField
          id={`${id}-file`}
          ref={fileInput}
          name="csv"
          type="file"
          accept=".csv,text/csv"
          label={t("importFile")}
          hint={t("importHelp")}
          className="block text-sm file:mr-3 file:rounded-md file:border file:border-slate-400 file:bg-white file:px-3 file:py-1.5 file:font-medium hover:file:border-brand-600"
        />
        <SubmitButton pending={busy} pendingText={t("importBusy")}>
          {t("importSubmit")}
        </SubmitButton>
        <div aria-live="polite">
          {outcome ? (
            <p role={outcome.kind === "error" ? "alert" : "status"} className={outcome.kind === "error" ? "whitespace-pre-line font-medium text-red-700" : "font-medium text-green-800"}>
              {outcome.text}
            </p>
          ) : null}
        </div>
      </form>
    </section>
  );
}
