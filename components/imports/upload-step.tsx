"use client";
// Step 2: the statement file, uploaded with a progress bar, and the bank account it comes from
// (optional: the column mapping confirmed for it is remembered and read the next statement of
// that account; the accounts remembered so far are offered). The server reads the file into a
// preview (nothing is written to the books yet); its refusals (not a CSV: 415, over 10 MB: 413,
// a field it cannot read: 400) are shown with the server's own message. A spreadsheet (XLSX, ODS)
// is converted to CSV here first, from the sheet the owner picks (the first by default), by a
// module loaded only when such a file is chosen; an XLS or a PDF is refused here, with what to do.
import { useQuery } from "@tanstack/react-query";
import { useId, useRef, useState } from "react";
import { useTRPC } from "@/lib/trpc/client";
import type { TCreateImportResult } from "@/server/imports/import.schema";
import { ActionButton } from "../ui/action-button";
import { CardHeader } from "../ui/card";
import { Field, FormAlert } from "../ui/field";
import { UploadIcon } from "../ui/icons";
import { useHydrated } from "../ui/use-hydrated";
import type { TImportSettings } from "./source-step";
import type { TWorkbook } from "./spreadsheet";
import {
  convertedFileName,
  STATEMENT_ACCEPT,
  STATEMENT_FORMATS,
  statementFileKind,
  UploadError,
  uploadStatement,
  type TUploadProgress,
} from "./upload";

function sizeOf(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** The longest bank account the server takes (POST /v1/imports account). */
const ACCOUNT_MAX = 64;
/** The largest statement the server takes (Import rules 1): a converted sheet is held to it too. */
const FILE_MAX_BYTES = 10 * 1024 * 1024;

/** What the chosen file is: text for the server, a spreadsheet being read or read, or refused here. */
type TPrepared =
  | { kind: "text" }
  | { kind: "reading" }
  | { kind: "spreadsheet"; workbook: TWorkbook; sheet: number }
  | { kind: "refused"; message: string };

/** Reads the chosen file's kind, and a spreadsheet's sheets (loading the converter only then). */
async function prepare(file: File): Promise<TPrepared> {
  const head = new Uint8Array(await file.slice(0, 8).arrayBuffer());
  const sniffed = statementFileKind(head);
  if (sniffed.kind !== "spreadsheet") return sniffed;
  const { readWorkbook, SpreadsheetError } = await import("./spreadsheet");
  try {
    const workbook = readWorkbook(new Uint8Array(await file.arrayBuffer()));
    return { kind: "spreadsheet", workbook, sheet: workbook.defaultSheet };
  } catch (caught) {
    if (caught instanceof SpreadsheetError) return { kind: "refused", message: caught.message };
    throw caught;
  }
}

/** The CSV File of a spreadsheet's sheet, or the message why there is none. */
async function convert(file: File, prepared: Extract<TPrepared, { kind: "spreadsheet" }>): Promise<File | string> {
  const { SpreadsheetError } = await import("./spreadsheet");
  const { workbook, sheet } = prepared;
  const name = workbook.sheets[sheet]?.name ?? "";
  try {
    const { csv, rows } = workbook.toCsv(sheet);
    if (rows === 0) return `The sheet "${name}" is empty. Choose the sheet that holds the statement.`;
    const converted = new File([csv], convertedFileName(file.name, workbook.sheets.length > 1 ? name : null), {
      type: "text/csv",
    });
    if (converted.size > FILE_MAX_BYTES)
      return `The sheet "${name}" is ${sizeOf(converted.size)} as CSV: a statement can be at most 10 MB. Split it and upload the parts.`;
    return converted;
  } catch (caught) {
    if (caught instanceof SpreadsheetError) return caught.message;
    throw caught;
  }
}

export function UploadStep(props: {
  settings: TImportSettings;
  onAccountChange: (account: string) => void;
  businessName: string;
  presetName: string;
  /** Why the last preview cannot be used any more (expired): shown until the next upload. */
  notice: string | null;
  onBack: () => void;
  onUploaded: (created: TCreateImportResult, file: File) => void;
}) {
  const hydrated = useHydrated();
  const trpc = useTRPC();
  const listId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [prepared, setPrepared] = useState<TPrepared>({ kind: "text" });
  // The file whose reading is current: a slower read of an earlier choice is dropped.
  const choice = useRef(0);
  // The current file's reading, awaited by an upload clicked before it ends.
  const reading = useRef<Promise<TPrepared> | null>(null);
  const [progress, setProgress] = useState<TUploadProgress | null>(null);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [accountError, setAccountError] = useState<string | null>(null);
  // The accounts this business's confirmed imports named: picking one finds its mapping.
  const { businessId } = props.settings;
  const accounts = useQuery(trpc.imports.accounts.queryOptions({ business_id: businessId }, { enabled: businessId !== "" }));

  async function upload() {
    // Blanks and hyphens alone name no account (the server compares accounts without them).
    const account = props.settings.account.trim();
    const badAccount = account !== "" && !/[^\s-]/.test(account);
    setAccountError(badAccount ? "The bank account needs a letter or digit: an IBAN, an account number or a name." : null);
    if (!file || badAccount) {
      setError(file ? "Check the bank account." : "Choose the statement file first.");
      if (!file) inputRef.current?.focus();
      return;
    }
    // A click right after choosing the file waits for its first bytes (or the spreadsheet) to be read.
    const ready = prepared.kind === "reading" ? ((await reading.current) ?? { kind: "text" as const }) : prepared;
    if (ready.kind === "refused" || ready.kind === "reading") {
      setError(ready.kind === "refused" ? ready.message : "The file could not be read. Choose it again.");
      return;
    }
    let upload = file;
    if (ready.kind === "spreadsheet") {
      const converted = await convert(file, ready);
      if (typeof converted === "string") {
        setError(converted);
        return;
      }
      upload = converted;
    }
    setPending(true);
    setError(null);
    setProgress({ loaded: 0, total: upload.size });
    try {
      const created = await uploadStatement({ ...props.settings, file: upload }, setProgress);
      props.onUploaded(created, file);
    } catch (caught) {
      const refused = caught instanceof UploadError ? caught.issues.find((issue) => issue.path === "account") : undefined;
      if (refused) setAccountError(`The bank account ${refused.message}.`);
      setError(
        refused ? "Check the bank account." : caught instanceof UploadError ? caught.message : "The upload failed. Try again.",
      );
      setProgress(null);
      setPending(false);
    }
  }

  const percent =
    progress && progress.total ? Math.min(100, Math.round((progress.loaded / Math.max(progress.total, 1)) * 100)) : null;
  const sent = percent === 100;

  return (
    <section className="card" aria-labelledby="import-upload-heading">
      <CardHeader
        headingId="import-upload-heading"
        title="Upload the statement"
        description={
          <>
            For <strong>{props.businessName}</strong>, read with <strong>{props.presetName}</strong>. Nothing is booked until you
            confirm the preview.
          </>
        }
      >
        <button type="button" className="button button-secondary" onClick={props.onBack} disabled={pending}>
          Change
        </button>
      </CardHeader>
      <div className="card-body">
        <form
          className="form"
          aria-labelledby="import-upload-heading"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            void upload();
          }}
        >
          <FormAlert message={error ?? props.notice} />
          <Field
            label="Statement file"
            hint={`Your bank statement as ${STATEMENT_FORMATS}, at most 10 MB. A spreadsheet is converted to CSV in your browser: dates and numbers as its cells hold them.`}
          >
            {(control) => (
              <input
                {...control}
                ref={inputRef}
                type="file"
                className="input input-file"
                name="file"
                accept={STATEMENT_ACCEPT}
                disabled={pending}
                onChange={(event) => {
                  const chosen = event.target.files?.[0] ?? null;
                  const current = ++choice.current;
                  setFile(chosen);
                  setError(null);
                  setPrepared(chosen ? { kind: "reading" } : { kind: "text" });
                  if (!chosen) return;
                  const read = prepare(chosen).catch((): TPrepared => ({
                    kind: "refused",
                    message: "The file could not be read. Choose it again.",
                  }));
                  reading.current = read;
                  void read.then((next) => {
                    if (current !== choice.current) return;
                    setPrepared(next);
                    if (next.kind === "refused") setError(next.message);
                  });
                }}
              />
            )}
          </Field>
          {file ? (
            <p className="hint import-file">
              <span className="mono">{file.name}</span> · {sizeOf(file.size)}
              {prepared.kind === "reading" ? " · reading the spreadsheet…" : null}
              {prepared.kind === "spreadsheet"
                ? ` · ${prepared.workbook.kind.toUpperCase()}, converted to CSV before the upload`
                : null}
            </p>
          ) : null}
          {prepared.kind === "spreadsheet" && prepared.workbook.sheets.length > 1 ? (
            <Field label="Sheet" hint="The sheet that holds the statement; its first row names the columns.">
              {(control) => (
                <select
                  {...control}
                  className="select"
                  name="sheet"
                  value={prepared.sheet}
                  disabled={pending}
                  onChange={(event) => {
                    setPrepared({ ...prepared, sheet: Number(event.target.value) });
                    setError(null);
                  }}
                >
                  {prepared.workbook.sheets.map((sheet, index) => (
                    <option key={index} value={index}>
                      {sheet.hidden ? `${sheet.name} (hidden)` : sheet.name}
                    </option>
                  ))}
                </select>
              )}
            </Field>
          ) : null}
          <Field
            label="Bank account (optional)"
            hint="IBAN or a name; the column mapping you confirm is remembered for this account."
            error={accountError}
          >
            {(control) => (
              <input
                {...control}
                className="input"
                name="account"
                list={listId}
                maxLength={ACCOUNT_MAX}
                autoComplete="off"
                value={props.settings.account}
                disabled={pending}
                onChange={(event) => {
                  props.onAccountChange(event.target.value);
                  setAccountError(null);
                }}
              />
            )}
          </Field>
          <datalist id={listId}>
            {(accounts.data?.data ?? []).map((saved) => (
              <option key={saved.account} value={saved.account} />
            ))}
          </datalist>
          {progress ? (
            <div className="upload-progress">
              <progress className="progress" aria-label="Upload progress" max={100} value={percent ?? undefined} />
              <p className="hint" role="status">
                {sent ? "Reading the statement…" : percent === null ? "Uploading…" : `Uploading… ${percent}%`}
              </p>
            </div>
          ) : null}
          <div className="form-actions">
            <ActionButton
              look="button-primary"
              pending={pending}
              disabled={pending || !hydrated}
              icon={<UploadIcon />}
              onClick={() => void upload()}
            >
              {pending ? "Uploading…" : "Upload and preview"}
            </ActionButton>
          </div>
        </form>
      </div>
    </section>
  );
}
