"use client";
// Step 2: the statement file, uploaded with a progress bar. The server reads it into a preview
// (nothing is written to the books yet); its refusals (not a CSV: 415, over 10 MB: 413, a
// field it cannot read: 400) are shown with the server's own message.
import { useRef, useState } from "react";
import type { TCreateImportResult } from "@/server/imports/import.schema";
import { ActionButton } from "../ui/action-button";
import { CardHeader } from "../ui/card";
import { Field, FormAlert } from "../ui/field";
import { UploadIcon } from "../ui/icons";
import { useHydrated } from "../ui/use-hydrated";
import type { TImportSettings } from "./source-step";
import { UploadError, uploadStatement, type TUploadProgress } from "./upload";

function sizeOf(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

export function UploadStep(props: {
  settings: TImportSettings;
  businessName: string;
  presetName: string;
  /** Why the last preview cannot be used any more (expired): shown until the next upload. */
  notice: string | null;
  onBack: () => void;
  onUploaded: (created: TCreateImportResult, file: File) => void;
}) {
  const hydrated = useHydrated();
  const inputRef = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState<TUploadProgress | null>(null);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function upload() {
    if (!file) {
      setError("Choose the statement file first.");
      inputRef.current?.focus();
      return;
    }
    setPending(true);
    setError(null);
    setProgress({ loaded: 0, total: file.size });
    try {
      const created = await uploadStatement({ ...props.settings, file }, setProgress);
      props.onUploaded(created, file);
    } catch (caught) {
      setError(caught instanceof UploadError ? caught.message : "The upload failed. Try again.");
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
          <Field label="Statement file" hint="A CSV or TSV export of your bank statement, at most 10 MB.">
            {(control) => (
              <input
                {...control}
                ref={inputRef}
                type="file"
                className="input input-file"
                name="file"
                accept=".csv,.tsv,.txt,text/csv,text/tab-separated-values,text/plain"
                disabled={pending}
                onChange={(event) => {
                  setFile(event.target.files?.[0] ?? null);
                  setError(null);
                }}
              />
            )}
          </Field>
          {file ? (
            <p className="hint import-file">
              <span className="mono">{file.name}</span> · {sizeOf(file.size)}
            </p>
          ) : null}
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
