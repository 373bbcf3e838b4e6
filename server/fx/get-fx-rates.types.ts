import { z } from "zod";
import { ZCurrency, ZDate } from "../shared/schemas";
import type { TProcedureMeta } from "../trpc/meta";
import { ZFxRates } from "./fx.schema";

export const getFxRatesMeta: TProcedureMeta = {
  openapi: {
    method: "GET",
    path: "/v1/fx/rates",
    tags: ["FX"],
    summary: "Exchange rates used by the system",
    description: [
      "The rates the service converts with: `1 base = rate quote`, each a decimal string with exactly 8 places.",
      "For the owner, and for agents holding a finances:observe grant.",
      "",
      "- `date` (default today, UTC): each rate is the latest published on or before that day (a future day gives the latest); `as_of` is the day of the rate used.",
      "- `base` (default the owner's base currency) and `quotes` (comma-separated ISO codes, default every currency the source covers, the base excluded). Rates are sorted by quote.",
      "- Cross rates go through EUR, the sources' base: rate(base→quote) = rate(EUR→quote) / rate(EUR→base), computed exactly and rounded once to 8 places, half to even.",
      "- `stale`: the rate is older than the source's rhythm explains (ecb: more than 5 days before `date`; mock rates never are).",
      "- `source`: the configured source, `ecb` (ECB reference rates, refreshed hourly until the day's rates are stored) or `mock` (a fixed table, the same every day; the default).",
      "",
      "Errors: 422 currency_unsupported when the source does not cover `base` or an asked quote; 422 fx_unavailable when there is no rate on or before `date` for `base` or an asked quote (without `quotes`, quotes lacking a rate are left out, and fx_unavailable means none is known).",
    ].join("\n"),
  },
};

export const ZGetFxRatesRequest = z.object({
  date: ZDate.optional().describe("YYYY-MM-DD; default today (UTC)."),
  base: ZCurrency.optional().describe("Default: the owner's base currency."),
  quotes: z
    .string()
    .max(400)
    .regex(/^[A-Z]{3}(,[A-Z]{3})*$/, { message: "must be comma-separated ISO 4217 codes in upper case, e.g. USD,GBP" })
    .optional()
    .describe("Comma-separated ISO codes, e.g. USD,GBP,JPY; default every covered currency."),
});
export const ZGetFxRatesResponse = z.object({ data: ZFxRates });
