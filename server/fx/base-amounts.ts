// The base-currency view of records (contract, Amounts and currency rules): every record keeps
// amount_minor + currency as entered and shows base_amount_minor, base_currency and fx at the
// current rate of today. One batched conversion per answer, never one per row.
// Used by subscriptions, budget reservations and cash snapshots.
import { z } from "zod";
import type { TDbOrTx } from "../db/client";
import { AppError } from "../errors/app-error";
import { convertMany } from "./fx-service";
import { ZFxInfo, type TFxInfo } from "./fx.schema";
import { todayUtc } from "./money";
import { ZCurrency } from "../shared/schemas";

export const ZBaseAmountFields = z.object({
  base_amount_minor: z.number().int().describe("amount_minor converted to base_currency at today's current rate."),
  base_currency: ZCurrency.describe("The owner's base currency."),
  fx: ZFxInfo,
});

export type TBaseAmount = { base_amount_minor: number; base_currency: string; fx: TFxInfo };

/** Minor units leave as JSON integers; a value JSON cannot carry exactly is an error, never rounded. */
export function toJsonAmount(value: bigint): number {
  const number = Number(value);
  if (!Number.isSafeInteger(number)) throw new AppError("internal_error", "An amount is beyond the exact JSON integer range.");
  return number;
}

export async function baseCurrencyOf(db: TDbOrTx, ownerId: string): Promise<string> {
  const owner = await db.owner.findUnique({ where: { id: ownerId }, select: { baseCurrency: true } });
  if (!owner) throw new AppError("unauthenticated");
  return owner.baseCurrency;
}

/** Base fields for each item, in order; one convertMany for all of them. */
export async function toBaseAmounts(
  db: TDbOrTx,
  ownerId: string,
  items: ReadonlyArray<{ amountMinor: bigint; currency: string }>,
): Promise<TBaseAmount[]> {
  if (items.length === 0) return [];
  const baseCurrency = await baseCurrencyOf(db, ownerId);
  const on = todayUtc();
  const converted = await convertMany(
    db,
    items.map((item) => ({ amountMinor: item.amountMinor, from: item.currency, to: baseCurrency, on, kind: "current" as const })),
  );
  return converted.map((result) => ({
    base_amount_minor: toJsonAmount(result.amountMinor),
    base_currency: baseCurrency,
    fx: result.fx,
  }));
}
