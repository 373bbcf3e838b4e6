import { z } from "zod";
import { ZUuid } from "../shared/schemas";
import type { TProcedureMeta } from "../trpc/meta";
import { IMPORT_MAX_LISTED_SKIPS, IMPORT_TX_OPTIONS, ZImportRevertResult } from "./import.schema";

export const revertImportMeta: TProcedureMeta = {
  openapi: {
    method: "POST",
    path: "/v1/imports/{id}/revert",
    tags: ["Imports"],
    summary: "Revert a confirmed import",
    description:
      "Additive (issue 32). Undoes a wrong import, all or nothing in one transaction: every event the import wrote that is " +
      "still confirmed is voided (listed, counted nowhere); lines the owner corrected or voided since are left as they are " +
      `and listed in skipped (reason corrected or voided; at most ${IMPORT_MAX_LISTED_SKIPS}, skipped_count counts all). ` +
      "Reconciled lines lose their link (payload.reconciles_event_id), so the events they matched (which always counted) " +
      "can be matched by another line. The voided lines give up their external_id (it gets the suffix ~reverted:<import id>), " +
      "so the same statement can be imported again (into the right business, with the right mapping); lines the owner " +
      "corrected or voided keep theirs, so a re-import finds them already imported. Subscriptions the import created from its proposals stay (subscriptions_kept: " +
      "cancel them on their own). Audited as import.reverted with the counts. The import's status becomes reverted " +
      "(GET /v1/imports, GET /v1/imports/{id}); it no longer counts as a bank import for cash coverage, and still counts " +
      "toward imports_per_month. A previewed, expired or already reverted import answers 409 state_conflict; another " +
      "owner's 404 not_found. Owner only; needs an Idempotency-Key (the same key replays the first answer; after a lost " +
      "connection the request may be sent again: nothing is kept of a revert that did not finish).",
  },
  transaction: IMPORT_TX_OPTIONS,
};
export const ZRevertImportRequest = z.object({ id: ZUuid });
export const ZRevertImportResponse = z.object({ data: ZImportRevertResult });
