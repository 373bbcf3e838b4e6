"use client";
// Step 2: the statement file, uploaded with a progress bar, and the bank account it comes from
// (optional: the column mapping confirmed for it is remembered and read the next statement of
// that account; the accounts remembered so far are offered). The server reads the file into a
// preview (nothing is written to the books yet); its refusals (not a CSV: 415, over 10 MB: 413,
// a field it cannot read: 400) are shown with the server's own message.
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
import { UploadError, uploadStatement, type TUploadProgress } from "./upload";

function sizeOf(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** The longest bank account the server takes (POST /v1/imports account). */
const ACCOUNT_MAX = 64;

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
    setPending(true);
    setError(null);
    setProgress({ loaded: 0, total: file.size });
    try {
      const created = await uploadStatement({ ...props.settings, file }, setProgress);
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
            hint="Your bank statement as CSV or TSV, OFX or QFX, CAMT.053 or CAMT.052 (XML), MT940 or QIF, at most 10 MB."
          >
            {(control) => (
              <input
                {...control}
                ref={inputRef}
                type="file"
                className="input input-file"
                name="file"
                accept=".csv,.tsv,.txt,.ofx,.qfx,.xml,.sta,.mt940,.940,.qif,text/csv,text/tab-separated-values,text/plain,application/xml,text/xml"
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
