import { z } from "zod";
import { ZUuid } from "../shared/schemas";
import type { TProcedureMeta } from "../trpc/meta";
import { IMPORT_TX_OPTIONS, ZConfirmImportInput, ZImportResult } from "./import.schema";

export const confirmImportMeta: TProcedureMeta = {
  openapi: {
    method: "POST",
    path: "/v1/imports/{id}/confirm",
    tags: ["Imports"],
    summary: "Confirm an import",
    description:
      "Writes the preview's rows as events, all or nothing in one transaction: through the ingest path with source_type " +
      "IMPORT, the owner's manual_import integration (created by the first import) and payload.batch_id = the import id; " +
      "money out becomes an expense, money in a revenue (amount_minor positive), state actual. Rows already imported are " +
      "deduped; reconciled rows are stored with payload.reconciles_event_id (out of totals; the match is asked again at " +
      "confirm: an event taken by another import, corrected or voided since is replaced by the next free one, or the row " +
      "is written as new, so one event is reconciled by one line at most); rows in keep_separate are written as new lines " +
      "and kept out of the daily reconciliation (additive, issue 32); rows in exclude_external_ids " +
      "are left out. Each index of accept_proposals becomes a recurring-expense subscription with provenance IMPORT and the " +
      "proposal's confidence (an index that is not in preview.proposals: 400, nothing written). One audit entry " +
      "import.confirmed records the counts. mapping: the raw cells are not kept after the upload, so only the upload's own " +
      "mapping (or none) is accepted; a different mapping answers 400: upload the statement again with it. Refund rows are " +
      "not mapped in this version (every row is an expense or a revenue). After expires_at, or once confirmed, 409 " +
      "state_conflict (upload it again); the same Idempotency-Key replays the first answer.",
  },
  successStatus: 201,
  transaction: IMPORT_TX_OPTIONS,
  planLimit: "imports_per_month",
};
export const ZConfirmImportRequest = ZConfirmImportInput.extend({ id: ZUuid });
export const ZConfirmImportResponse = z.object({ data: ZImportResult });
