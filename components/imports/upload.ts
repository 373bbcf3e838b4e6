// The statement upload from the browser: multipart/form-data to /api/panel/imports (which hands
// it to POST /v1/imports with the panel cookie's token) through XMLHttpRequest, the one browser
// API that reports upload progress. Every upload carries a fresh Idempotency-Key; a failure
// carries the contract's error body (code and message).
import { serverFaultMessage, UNREACHABLE_MESSAGE } from "@/lib/trpc/errors";
import type { TCreateImportResult } from "@/server/imports/import.schema";

export const UPLOAD_URL = "/api/panel/imports";

export type TUploadFields = {
  file: File;
  businessId: string;
  preset: string;
  /** ISO 4217, or "" for none. */
  currencyDefault: string;
  /** The bank account the statement comes from, or "" for none. */
  account: string;
  reconcile: boolean;
};

/** Bytes sent so far out of the total (null total: the browser does not know it). */
export type TUploadProgress = { loaded: number; total: number | null };

/** A field the server refused (the contract's details.issues), e.g. { path: "account", message: "must be …" }. */
export type TUploadIssue = { path: string; message: string };

export class UploadError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string | null,
    readonly issues: TUploadIssue[] = [],
  ) {
    super(message);
    this.name = "UploadError";
  }
}

const SIGNED_OUT = new Set(["unauthenticated", "session_expired", "session_revoked"]);

/** A UUID v4 (crypto.randomUUID needs a secure context; the panel may be served over plain http). */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === "function") return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The UploadError of a failed answer: the contract's error body when there is one, else a message for the status. */
export function uploadErrorOf(status: number, text: string, requestId: string | null = null): UploadError {
  let bodyRequestId: string | null = null;
  try {
    const body = JSON.parse(text) as {
      error?: { code?: unknown; message?: unknown; request_id?: unknown; details?: { issues?: unknown } };
    };
    const code = typeof body.error?.code === "string" ? body.error.code : null;
    const message = typeof body.error?.message === "string" ? body.error.message : null;
    if (typeof body.error?.request_id === "string") bodyRequestId = body.error.request_id;
    // A fault on our side (500 internal_error): say so, with the id to quote.
    if (status >= 500) return new UploadError(serverFaultMessage(bodyRequestId ?? requestId), status, code);
    // The REST layer's body cap speaks in bytes (of the whole form): say what that means here.
    if (message && code === "payload_too_large" && !/10 MB/.test(message))
      return new UploadError(`${message} A statement file can be at most 10 MB.`, status, code);
    if (message) return new UploadError(message, status, code, issuesOf(body.error?.details?.issues));
  } catch {
    // Not the contract's body (a proxy's error page): fall through to a generic message.
  }
  if (status >= 500) return new UploadError(serverFaultMessage(bodyRequestId ?? requestId), status, null);
  if (status === 413) return new UploadError("The file is too large (at most 10 MB).", status, "payload_too_large");
  return new UploadError(`The upload failed (HTTP ${status}). Try again.`, status, null);
}

function issuesOf(value: unknown): TUploadIssue[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((issue: { path?: unknown; message?: unknown }) =>
    typeof issue?.path === "string" && typeof issue.message === "string" ? [{ path: issue.path, message: issue.message }] : [],
  );
}

/** Uploads the statement; resolves with the preview, rejects with an UploadError. */
export function uploadStatement(
  fields: TUploadFields,
  onProgress: (progress: TUploadProgress) => void,
  signal?: AbortSignal,
): Promise<TCreateImportResult> {
  const form = new FormData();
  form.set("business_id", fields.businessId);
  form.set("preset", fields.preset);
  if (fields.currencyDefault) form.set("currency_default", fields.currencyDefault);
  if (fields.account.trim()) form.set("account", fields.account.trim());
  form.set("reconcile", fields.reconcile ? "true" : "false");
  // The file last: the small fields are read even when the file is cut short.
  form.set("file", fields.file, fields.file.name);

  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", UPLOAD_URL);
    xhr.setRequestHeader("Idempotency-Key", newIdempotencyKey());
    xhr.setRequestHeader("Accept", "application/json");
    xhr.upload.onprogress = (event) => onProgress({ loaded: event.loaded, total: event.lengthComputable ? event.total : null });
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        try {
          resolve((JSON.parse(xhr.responseText) as { data: TCreateImportResult }).data);
        } catch {
          reject(new UploadError("The server's answer could not be read. Try again.", xhr.status, null));
        }
        return;
      }
      const error = uploadErrorOf(xhr.status, xhr.responseText, xhr.getResponseHeader("x-request-id"));
      if (error.code && SIGNED_OUT.has(error.code)) window.location.assign("/sign-in");
      reject(error);
    };
    xhr.onerror = () => reject(new UploadError(UNREACHABLE_MESSAGE, 0, null));
    xhr.onabort = () => reject(new UploadError("The upload was cancelled.", 0, "aborted"));
    signal?.addEventListener("abort", () => xhr.abort(), { once: true });
    xhr.send(form);
  });
}

/** The formats the upload step takes, as it names them to the owner. */
export const STATEMENT_FORMATS = "CSV or TSV, OFX or QFX, CAMT.053 or CAMT.052 (XML), MT940, QIF, XLSX or ODS";

/** The file input's accept list: the text statements, the bank formats and the spreadsheets the panel converts. */
export const STATEMENT_ACCEPT = [
  ".csv",
  ".tsv",
  ".txt",
  "text/csv",
  "text/tab-separated-values",
  "text/plain",
  // The bank formats the server reads (server/imports/formats/).
  ".ofx",
  ".qfx",
  ".xml",
  ".sta",
  ".mt940",
  ".940",
  ".qif",
  "application/xml",
  "text/xml",
  ".xlsx",
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  ".ods",
  "application/vnd.oasis.opendocument.spreadsheet",
].join(",");

/**
 * What the panel does with a chosen file, from its first bytes (not its name): a zip container
 * (XLSX, ODS) is converted to CSV here before the upload; an old binary spreadsheet (XLS) or a
 * PDF is refused here with what to do instead (the server would refuse it with 415 anyway);
 * everything else goes to the server as it is, which reads text and refuses other binaries.
 */
export function statementFileKind(
  head: Uint8Array,
): { kind: "text" } | { kind: "spreadsheet" } | { kind: "refused"; message: string } {
  const starts = (bytes: number[]) => bytes.every((byte, i) => head[i] === byte);
  if (starts([0x50, 0x4b, 0x03, 0x04]) || starts([0x50, 0x4b, 0x05, 0x06])) return { kind: "spreadsheet" };
  if (starts([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]))
    return {
      kind: "refused",
      message:
        "This is an old binary Excel file (XLS) or another Office document, which cannot be read here. " +
        "Save it as XLSX, ODS or CSV in your spreadsheet program and upload that.",
    };
  if (starts([0x25, 0x50, 0x44, 0x46, 0x2d]))
    return {
      kind: "refused",
      message: `This is a PDF, which cannot be read as a statement. Download the statement from your bank as ${STATEMENT_FORMATS} and upload that.`,
    };
  return { kind: "text" };
}

/** The name of the CSV a spreadsheet becomes ("May.xlsx", sheet "Giro" of several → "May - Giro.csv"). */
export function convertedFileName(original: string, sheet: string | null): string {
  const base = original.replace(/\.(xlsx|ods)$/i, "") || "statement";
  return sheet ? `${base} - ${sheet}.csv` : `${base}.csv`;
}
