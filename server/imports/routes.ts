// POST /v1/imports: the statement upload, multipart/form-data, so a plain route (the REST layer
// has already authenticated the caller, checked the route's owner-only access, capped the body
// and claimed the Idempotency-Key over its raw bytes). The fields are read from the raw body;
// the service does the rest.
import { z } from "zod";
import { callerOf } from "../auth/caller";
import { AppError } from "../errors/app-error";
import { parseMultipart, type TMultipartPart } from "../http/multipart-body";
import { envelopeOutcome } from "../rest/outcome";
import type { TPlainRequest, TPlainRoute } from "../rest/plain-route";
import { ZUuid } from "../shared/schemas";
import { createImport, prepareImport, type TCreateImportInput, type TPreparedImport } from "./import-upload";
import {
  IMPORT_MAX_BODY_BYTES,
  IMPORT_MAX_FILE_BYTES,
  IMPORT_TX_OPTIONS,
  ZCreateImportForm,
  ZCreateImportResult,
} from "./import.schema";
import { ZImportMapping } from "./presets";

const SUCCESS_HEADERS = {
  "X-Request-Id": { $ref: "#/components/headers/XRequestId" },
  "X-Service-Contract": { $ref: "#/components/headers/XServiceContract" },
};

const ZOwnAccounts = z.array(z.string().trim().min(1).max(64)).max(100);

/** The upload's parts by name (the first of a repeated name, as FormData.get), read out of the raw body without a copy. */
type TUploadForm = Map<string, TMultipartPart>;

function readForm(request: TPlainRequest): TUploadForm {
  const type = request.req.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data/i.test(type)) {
    throw new AppError(
      "unsupported_media_type",
      `POST /v1/imports takes multipart/form-data (a file field with the statement), not ${type || "an untyped body"}.`,
    );
  }
  const form: TUploadForm = new Map();
  for (const part of parseMultipart(request.rawBody, type)) if (!form.has(part.name)) form.set(part.name, part);
  return form;
}

function textField(form: TUploadForm, name: string): string | undefined {
  const part = form.get(name);
  if (part === undefined) return undefined;
  if (part.filename !== null) throw AppError.invalidField(name, "must be a text field, not a file");
  const trimmed = part.data.toString("utf8").trim();
  return trimmed === "" ? undefined : trimmed;
}

function jsonField<T>(form: TUploadForm, name: string, schema: z.ZodType<T>): T | undefined {
  const text = textField(form, name);
  if (text === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw AppError.invalidField(name, "must be JSON");
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const path = [name, ...issue.path.map(String)].join(".");
    throw new AppError("validation_error", `${path}: ${issue.message}`, {
      details: {
        issues: parsed.error.issues.map((i) => ({ path: [name, ...i.path.map(String)].join("."), message: i.message })),
      },
    });
  }
  return parsed.data;
}

/** The form's fields, checked (400 validation_error naming the field; 413 for a file over 10 MB). */
export function readImportForm(form: TUploadForm): TCreateImportInput {
  const file = form.get("file");
  if (file === undefined) throw AppError.invalidField("file", "is required (the statement, as a file field)");
  if (file.filename === null) throw AppError.invalidField("file", "must be a file, not a text field");
  if (file.data.byteLength > IMPORT_MAX_FILE_BYTES) {
    throw new AppError("payload_too_large", `The file exceeds ${IMPORT_MAX_FILE_BYTES} bytes (10 MB).`, {
      details: { max_bytes: IMPORT_MAX_FILE_BYTES, file_bytes: file.data.byteLength },
    });
  }
  const businessId = textField(form, "business_id");
  if (!businessId) throw AppError.invalidField("business_id", "is required");
  if (!ZUuid.safeParse(businessId).success) throw AppError.invalidField("business_id", "must be a UUID");
  const projectId = textField(form, "project_id");
  if (projectId !== undefined && !ZUuid.safeParse(projectId).success) throw AppError.invalidField("project_id", "must be a UUID");
  const reconcile = textField(form, "reconcile");
  if (reconcile !== undefined && reconcile !== "true" && reconcile !== "false") {
    throw AppError.invalidField("reconcile", 'must be "true" or "false"');
  }
  const name = file.filename;
  return {
    // A view into the request's body: the parser thread gets its own copy, the database this one.
    bytes: new Uint8Array(file.data.buffer as ArrayBuffer, file.data.byteOffset, file.data.byteLength),
    fileName: name ? name.slice(0, 255) : null,
    businessId,
    projectId,
    presetId: textField(form, "preset") ?? "generic",
    mapping: jsonField(form, "mapping", ZImportMapping),
    ownAccounts: jsonField(form, "own_accounts", ZOwnAccounts),
    currencyDefault: textField(form, "currency_default"),
    account: textField(form, "account"),
    reconcile: reconcile !== "false",
  };
}

const createImportRoute: TPlainRoute = {
  method: "POST",
  path: "/v1/imports",
  access: { kind: "owner" },
  idempotency: "required",
  maxBodyBytes: IMPORT_MAX_BODY_BYTES,
  transaction: IMPORT_TX_OPTIONS,
  openapi: {
    operationId: "createImport",
    tags: ["Imports"],
    summary: "Upload a bank statement (preview)",
    description:
      "Parses a CSV or TSV statement and answers a preview; nothing is written to the ledger until POST " +
      "/v1/imports/{id}/confirm, which must come within one hour (expires_at). The bytes decide the format: a binary " +
      "spreadsheet (XLS), a ZIP container (XLSX, ODS), PDF, UTF-16 text or markup answers 415 unsupported_media_type and " +
      "nothing is stored. A file over 10 MB (10,485,760 bytes) answers 413 payload_too_large, and so does a statement past " +
      "250,000 rows, 200 cells in a row or a 64 KiB line, or one that outgrows the parser's memory (details.limit: rows, " +
      "columns, line_bytes or memory; details.max). The file is parsed off the request thread. Rows are read with the " +
      "preset (default generic) and the mapping over it; each row is new, already (its external_id is already imported: " +
      "matched_event_id), reconciled (reconcile=true and an actual event of another integration has the same amount, " +
      "currency and direction within 3 days: matched_event_id; each event matches one row at most) or rejected " +
      "(reject_reason). Rows between own_accounts are skipped and counted in skipped_transfers. Row amounts are signed as " +
      "on the statement (negative = money out, imported as an expense; positive = money in, a revenue). preview.rows holds " +
      "the first 500 rows; GET /v1/imports/{id}?offset= pages the rest. proposals are recurring charges detected in the " +
      "file. Another owner's business or project answers 404; an unknown preset or a malformed field 400. Additive (issue " +
      "14): the date and number formats the mapping leaves open are guessed from the file (preview.format_guesses), " +
      "preview.mapping is the effective mapping, rejected rows carry their raw cells, and the file is kept until expires_at " +
      "so POST /v1/imports/{id}/preview can read it again with another mapping. The confirmed mapping is kept for the " +
      "business and header, and for the bank account the optional account field names (an IBAN, a number or a short " +
      "name): an upload without a mapping is read with the account's mapping, else the header's, else the preset's " +
      "(preview.mapping_source, preview.mapping_saved_for).",
    requestBody: { required: true, content: { "multipart/form-data": { schema: ZCreateImportForm } } },
    responses: {
      "200": {
        description: "The preview, stored for one hour.",
        headers: SUCCESS_HEADERS,
        content: {
          "application/json": {
            schema: z
              .object({ data: ZCreateImportResult, request_id: z.string().describe("Also in the X-Request-Id header.") })
              .meta({ id: "CreateImportResponse" }),
          },
        },
      },
    },
  },
  // The form read and the file parsed before the keyed transaction: an upload waiting for the
  // parser thread holds no database connection. Only for an owner (the route's access).
  prepare: async (request) => {
    if (request.actor.type !== "owner") return undefined;
    const input = readImportForm(readForm(request));
    return prepareImport(await request.getDb(), callerOf(request), input);
  },
  handle: async (request) => {
    const caller = callerOf(request); // the owner: the layer checked the route's access
    const prepared = request.prepared as TPreparedImport | undefined;
    const input = prepared?.input ?? readImportForm(readForm(request));
    const result = await createImport(await request.getDb(), caller, input, caller.now, prepared);
    return envelopeOutcome(200, { data: result });
  },
};

export const importPlainRoutes: TPlainRoute[] = [createImportRoute];
