import { z } from "zod";
import { ZRate } from "../fx/fx.schema";
import { ZCurrency, ZStoredDate } from "../shared/schemas";

export const ZBaseCurrencyPreviewQuery = z.object({
  base_currency: ZCurrency.describe("The base currency the owner considers."),
});

const ZRateToday = z.object({ rate: ZRate, as_of: ZStoredDate }).nullable();

export const ZBaseCurrencyPreview = z
  .object({
    from: ZCurrency.describe("The base currency now."),
    to: ZCurrency.describe("The base currency asked about."),
    changes: z.boolean().describe("false when `to` is the base currency already: PATCH would only confirm it."),
    events: z.object({
      actual: z
        .number()
        .int()
        .describe("Actual events to restate: each from its ORIGINAL amount at the rate of its own occurred_on (snapshot)."),
      planned: z.number().int().describe("Planned events to restate at today's rate (current)."),
    }),
    by_currency: z
      .array(
        z.object({
          currency: ZCurrency.describe("An original currency of the owner's records."),
          actual_events: z.number().int(),
          planned_events: z.number().int(),
          rate_today: ZRateToday.describe("1 currency = rate `to` today (planned events, and the records converted on read)."),
        }),
      )
      .describe("The events to restate by original currency, with today's rate into `to`."),
    converted_on_read: z
      .object({ subscriptions: z.number().int(), budget_reservations: z.number().int(), cash_snapshots: z.number().int() })
      .describe("Records that store no base amount: nothing is rewritten, they show in `to` at today's rate."),
    old_base_rate_today: ZRateToday.describe(
      "1 `from` = rate `to` today, for orientation; amounts are never chained through it.",
    ),
    refusal: z
      .object({ code: z.string(), message: z.string(), details: z.record(z.string(), z.unknown()).nullable() })
      .nullable()
      .describe(
        "The error PATCH /v1/me would answer right now (currency_unsupported, fx_unavailable, or an amount beyond the exact " +
          "range), null when it would succeed.",
      ),
  })
  .meta({ id: "BaseCurrencyPreview" });
export type TBaseCurrencyPreview = z.infer<typeof ZBaseCurrencyPreview>;
