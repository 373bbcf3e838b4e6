// The contract's FX shapes (Amounts and currency rules): FxInfo on records, FxSummary in
// the envelope of aggregates, FxUsed in aggregates' fx_used, and GET /v1/fx/rates.
import { z } from "zod";
import { ZCurrency, ZDate, ZStoredDate } from "../shared/schemas";

export const FX_SOURCES = ["ecb", "mock", "identity"] as const;
export type TFxSourceName = (typeof FX_SOURCES)[number];

/** A rate: a decimal string with exactly 8 places. */
export const ZRate = z
  .string()
  .regex(/^\d+\.\d{8}$/, { message: "must be a decimal with exactly 8 places" })
  .meta({ example: "1.08420000" });

export const ZFxInfo = z
  .object({
    rate: ZRate.describe("1 unit of the original currency = rate units of the base currency; exactly 8 places."),
    as_of: ZStoredDate.describe("The day the rate was published for (the latest rate on or before the day converted)."),
    source: z.enum(FX_SOURCES).describe("identity when the currencies are the same (rate 1)."),
    kind: z
      .enum(["snapshot", "current"])
      .describe("snapshot: frozen when an actual event was recorded; current: today's rate, recomputed on read."),
    stale: z.boolean().describe("The rate is older than the source's publication rhythm explains (ecb: more than 5 days)."),
  })
  .meta({ id: "FxInfo" });
export type TFxInfo = z.infer<typeof ZFxInfo>;

export const ZFxSummary = z
  .object({
    base_currency: ZCurrency,
    display_currency: ZCurrency,
    as_of: ZDate.describe("Oldest of the current rates used (today when no current rate was needed)."),
    source: z.string().describe("The rate source(s) used: ecb, mock, identity (comma-separated if several)."),
    stale: z.boolean().describe("A current rate used is stale."),
    currencies: z.array(ZCurrency).describe("Currencies of the originals in the aggregate, sorted."),
    estimated_share: z
      .number()
      .min(0)
      .max(1)
      .describe("0 to 1: share of the result (by absolute amount) converted at a current rate, 4 decimals."),
  })
  .meta({ id: "FxSummary" });
export type TFxSummary = z.infer<typeof ZFxSummary>;

export const ZFxUsed = z
  .object({
    from: ZCurrency,
    to: ZCurrency,
    rate: ZRate,
    as_of: ZDate,
    source: z.string(),
    stale: z.boolean(),
  })
  .meta({ id: "FxUsed" });
export type TFxUsed = z.infer<typeof ZFxUsed>;

export const ZFxRateEntry = z
  .object({
    quote: ZCurrency,
    rate: ZRate.describe("1 base = rate quote, 8 places."),
    as_of: ZDate.describe("Publication day of the rate used (the latest on or before `date`)."),
    stale: z.boolean(),
  })
  .meta({ id: "FxRateEntry" });

export const ZFxRates = z
  .object({
    base: ZCurrency,
    date: ZDate.describe("The day asked for."),
    source: z.enum(["ecb", "mock"]).describe("The configured rate source (FX_SOURCE)."),
    rates: z.array(ZFxRateEntry).describe("Sorted by quote."),
  })
  .meta({ id: "FxRates" });
export type TFxRates = z.infer<typeof ZFxRates>;
