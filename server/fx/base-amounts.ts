// The base-currency view of records (contract, Amounts and currency rules): every record keeps
// amount_minor + currency as entered and shows base_amount_minor, base_currency and fx at the
// current rate of today. One batched conversion per answer, never one per row. Writes refuse
// an amount beyond the exact range in the base (toBaseAmountsForWrite); reads show it as null.
// Used by subscriptions, budget reservations and cash snapshots.
import { z } from "zod";
import { todayUtc } from "../../lib/days";
import type { TDbOrTx } from "../db/client";
import { AppError } from "../errors/app-error";
import { convertMany, convertManySettled } from "./fx-service";
import { ZFxInfo, type TFxInfo } from "./fx.schema";
import { exactMinorOrNull, isExactMinor } from "./money";
import { ZCurrency } from "../shared/schemas";

export const ZBaseAmountFields = z.object({
  base_amount_minor: z
    .number()
    .int()
    .nullable()
    .describe(
      "amount_minor converted to base_currency at today's current rate. null when that conversion is beyond the exact " +
        "integer range ±(2^53 − 1) (possible only for a record stored before writes refused it, or after the rate moved): " +
        "amount_minor, currency, base_currency and fx stay exact; a base amount is never rounded.",
    ),
  base_currency: ZCurrency.describe("The owner's base currency."),
  fx: ZFxInfo,
});

export type TBaseAmount = { base_amount_minor: number | null; base_currency: string; fx: TFxInfo };

/**
 * A figure of an answer whose exact value a JSON number cannot carry: 422 amount_out_of_range,
 * `details.field` naming it (its dot-separated path in the answer's data, e.g.
 * `run_rate.in_minor`, `days.3.balance_committed_minor`). Individual amounts are refused at write
 * time, but sums of many (an aggregate, a simulation) can still pass ±(2^53 − 1).
 */
export class AmountOutOfRangeError extends AppError {
  constructor(readonly field: string) {
    super(
      "amount_out_of_range",
      `The figure ${field} is beyond ±(2^53 − 1) = ±9,007,199,254,740,991 minor units, the largest amount shown exactly, ` +
        "so it is not shown rather than rounded.",
      { details: { field } },
    );
  }
}

/**
 * The description text of the one error of a figure too large to show exactly (pinned-wave3
 * §1.4), for every aggregate (and the events' totals).
 */
export const AMOUNT_RANGE_RULE =
  "A figure of the answer whose exact value is beyond ±(2^53 − 1) minor units (a sum of many amounts can be) answers 422 " +
  "amount_out_of_range with details.field naming it (its dot-separated path in data, e.g. run_rate.in_minor); never a " +
  "rounded number.";

/**
 * A part of an answer that another read model computes (the business context's summary and
 * forecast): a figure of it beyond the exact range is named within `at`, the part's field.
 */
export async function amountsWithin<T>(at: string, part: Promise<T>): Promise<T> {
  try {
    return await part;
  } catch (error) {
    if (error instanceof AmountOutOfRangeError) throw new AmountOutOfRangeError(`${at}.${error.field}`);
    throw error;
  }
}

/**
 * Minor units leave as JSON integers: THE place a bigint becomes a JSON number. A value JSON
 * cannot carry exactly is refused (AmountOutOfRangeError naming `field`), never rounded.
 */
export function toJsonAmount(value: bigint, field: string): number {
  if (!isExactMinor(value)) throw new AmountOutOfRangeError(field);
  return Number(value);
}

export async function baseCurrencyOf(db: TDbOrTx, ownerId: string): Promise<string> {
  const owner = await db.owner.findUnique({ where: { id: ownerId }, select: { baseCurrency: true } });
  if (!owner) throw new AppError("unauthenticated");
  return owner.baseCurrency;
}

type TAmountItem = { amountMinor: bigint; currency: string };

function currentItems(items: ReadonlyArray<TAmountItem>, baseCurrency: string) {
  const on = todayUtc();
  return items.map((item) => ({
    amountMinor: item.amountMinor,
    from: item.currency,
    to: baseCurrency,
    on,
    kind: "current" as const,
  }));
}

/**
 * Base fields of stored records, in order; one conversion for all of them. A read never fails
 * on an amount: one beyond the exact range in the base shows base_amount_minor null. A
 * currency without a rate still answers its 422 (currency_unsupported first).
 */
export async function toBaseAmounts(db: TDbOrTx, ownerId: string, items: ReadonlyArray<TAmountItem>): Promise<TBaseAmount[]> {
  if (items.length === 0) return [];
  const baseCurrency = await baseCurrencyOf(db, ownerId);
  const outcomes = await convertManySettled(db, currentItems(items, baseCurrency));
  const failed = outcomes.flatMap((o) => (o.ok ? [] : [o.error]));
  const first = failed.find((e) => e.code === "currency_unsupported") ?? failed[0];
  if (first) throw first;
  return outcomes.map((o) => {
    const { amountMinor, fx } = o as Extract<typeof o, { ok: true }>;
    return { base_amount_minor: exactMinorOrNull(amountMinor), base_currency: baseCurrency, fx };
  });
}

/**
 * Base fields of amounts about to be written: refused (400 validation_error naming
 * amount_minor) when one is beyond the exact range in the base, so nothing is written.
 */
export async function toBaseAmountsForWrite(
  db: TDbOrTx,
  ownerId: string,
  items: ReadonlyArray<TAmountItem>,
): Promise<TBaseAmount[]> {
  if (items.length === 0) return [];
  const baseCurrency = await baseCurrencyOf(db, ownerId);
  const converted = await convertMany(db, currentItems(items, baseCurrency));
  return converted.map((result) => ({
    base_amount_minor: Number(result.amountMinor),
    base_currency: baseCurrency,
    fx: result.fx,
  }));
}
