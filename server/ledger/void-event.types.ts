import { z } from "zod";
import { ZIdParam } from "../shared/schemas";
import type { TProcedureMeta } from "../trpc/meta";
import { ZEvent, ZVoidEventInput } from "./event.schema";

export const voidEventMeta: TProcedureMeta = {
  openapi: {
    method: "POST",
    path: "/v1/events/{id}/void",
    tags: ["Events"],
    summary: "Void a manual event or an imported bank line",
    description:
      "Additive (issue 14). Withdraws a mistaken manual event (source_type MANUAL) or, since issue 32, a bank line a " +
      "statement import wrote (source_type IMPORT of the owner's manual_import integration): its status becomes voided; it " +
      "stays listed and readable but no longer counts in any total (Overview, summaries, GET /v1/events/totals). Nothing " +
      "is deleted; an audit entry event.voided keeps the optional reason. Bank lines that reconcile a voided manual event " +
      "are released: they count again (the money is not lost with the entry; audit details released_lines). An event of " +
      "another integration answers 409 state_conflict (its source restates it by sending a new version); an already " +
      "voided event 409 state_conflict; another owner's event 404 not_found. Owner only; needs an Idempotency-Key.",
  },
};
export const ZVoidEventRequest = ZIdParam.extend(ZVoidEventInput.shape);
export const ZVoidEventResponse = z.object({ data: ZEvent });
