import { z } from "zod";
import { ZIdParam } from "../shared/schemas";
import type { TProcedureMeta } from "../trpc/meta";
import { AT_MOST_ONE_SCOPE_JSON } from "../shared/scope";
import { atMostOneScope, ZCorrectionFields, ZEvent } from "./event.schema";

export const correctEventMeta: TProcedureMeta = {
  openapi: {
    method: "POST",
    path: "/v1/events/{id}/correct",
    tags: ["Events"],
    summary: "Correct a manual event or an imported bank line",
    description:
      "Additive (issue 14). Restates a manual event (source_type MANUAL) or, since issue 32, a bank line a statement " +
      "import wrote (source_type IMPORT of the owner's manual_import integration; its new version is the owner's entry, " +
      "source_type MANUAL, with payload.corrected_import_line { import_id, event_id }; a reconciled line does not count " +
      "and answers 409 state_conflict) as the contract restates an integration's: " +
      "in one transaction the event is voided and a new version is written with the fields given here (the others " +
      "are kept; null clears category or description; one of business_id, project_id or personal: true moves it), " +
      "linked by supersedes_event_id. The type and state stay; the base amount is converted again at the rate of " +
      "occurred_on (actual events) and frozen. Validation as POST /v1/expenses: a positive amount, a known currency, an " +
      "actual event not after today; a correction that changes nothing answers 400 validation_error. Audited as " +
      "event.voided (old) and event.created + event.corrected (new, with the changes). Bank lines that reconcile the old " +
      "version follow the new one when it is the same money (currency, amount, scope, within 3 days), else they are " +
      "released and count again. An event of another integration answers 409 state_conflict (restated by its source); " +
      "a voided event, or a planned one already fulfilled, " +
      "409 state_conflict; another " +
      "owner's event, business or project 404 not_found. Owner only; needs an Idempotency-Key. Answers 201 with the new version.",
  },
  successStatus: 201,
};
export const ZCorrectEventRequest = ZIdParam.extend(ZCorrectionFields.shape)
  .superRefine(atMostOneScope)
  .meta({ ...AT_MOST_ONE_SCOPE_JSON });
export const ZCorrectEventResponse = z.object({ data: ZEvent });
