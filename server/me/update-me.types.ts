import { z } from "zod";
import type { TProcedureMeta } from "../trpc/meta";
import { ZMe, ZUpdateMeInput } from "./me.schema";

export const updateMeMeta: TProcedureMeta = {
  openapi: {
    method: "PATCH",
    path: "/v1/me",
    tags: ["Me"],
    summary: "Update the owner's profile",
    description: [
      "Every field is optional. Setting `base_currency` confirms it (onboarding.base_currency_confirmed).",
      "",
      "Changing `base_currency` re-expresses every stored base amount in the new currency, in the same transaction: an actual event is converted from its ORIGINAL amount at the rate of its own occurred_on (fx.kind stays snapshot, as_of that day's rate), a planned event at today's rate (current). Amounts are never chained through the old base. Subscriptions, reservations and cash snapshots store no base amount; they are converted on read.",
      "If any event cannot be converted (422 currency_unsupported, or 422 fx_unavailable when the rate source has no rate on or before its day), the whole update is refused and nothing changes.",
      'A new base in which any amount of the owner would be beyond the exact integer range ±(2^53 − 1) (an event\'s base amount, or a subscription, budget reservation or cash snapshot shown in it) is refused the same way: 422 currency_unsupported with details { currency, field: "base_currency", reason: "amount_out_of_range", record_type, record_currency }; all amounts are checked before any is written.',
    ].join("\n"),
  },
  planExpiry: "exempt",
};
export const ZUpdateMeRequest = ZUpdateMeInput;
export const ZUpdateMeResponse = z.object({ data: ZMe });
