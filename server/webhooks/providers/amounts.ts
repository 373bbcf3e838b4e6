// Exact conversions of platform amounts to minor units (never rounded: an amount finer than
// the currency's minor unit is refused), and platform times to the contract's timestamps (their
// days: lib/days.ts).
import { parseDecimal } from "../../fx/money";
import { currencyDigits } from "../../shared/currencies";
import { isAppError } from "../../errors/app-error";
import type { TRejectedItem } from "../../ingest/ingest.schema";

export type TAmountResult = { ok: true; amountMinor: number } | { ok: false; code: TRejectedItem["code"]; message: string };

function digitsOf(currency: string): number | { ok: false; code: TRejectedItem["code"]; message: string } {
  try {
    return currencyDigits(currency);
  } catch (error) {
    if (isAppError(error) && error.code === "currency_unsupported")
      return { ok: false, code: "currency_unsupported", message: error.message };
    throw error;
  }
}

function toSafe(value: bigint, label: string): TAmountResult {
  if (value > BigInt(Number.MAX_SAFE_INTEGER) || value < -BigInt(Number.MAX_SAFE_INTEGER))
    return { ok: false, code: "validation_error", message: `${label}: is beyond the exact integer range` };
  return { ok: true, amountMinor: Number(value) };
}

/** A decimal string in major units ("12.34") → minor units of `currency`, exactly. */
export function decimalToMinor(text: string, currency: string, label = "amount"): TAmountResult {
  const digits = digitsOf(currency);
  if (typeof digits !== "number") return digits;
  let decimal;
  try {
    decimal = parseDecimal(text);
  } catch {
    return { ok: false, code: "validation_error", message: `${label}: must be a decimal number` };
  }
  // value = units / 10^scale; minor = units × 10^digits / 10^scale, which must be whole.
  const numerator = decimal.units * 10n ** BigInt(digits);
  const denominator = 10n ** BigInt(decimal.scale);
  if (numerator % denominator !== 0n)
    return {
      ok: false,
      code: "validation_error",
      message: `${label}: ${text} ${currency} is not a whole number of minor units (${currency} has ${digits} decimals); it is never rounded`,
    };
  return toSafe(numerator / denominator, label);
}

/** Micros (millionths of the major unit) → minor units of `currency`, exactly. */
export function microsToMinor(micros: bigint, currency: string, label = "cost_micros"): TAmountResult {
  const digits = digitsOf(currency);
  if (typeof digits !== "number") return digits;
  const perMinor = 10n ** BigInt(6 - digits); // EUR: 10 000 micros per cent; JPY: 1 000 000 per yen
  if (micros % perMinor !== 0n)
    return {
      ok: false,
      code: "validation_error",
      message: `${label}: ${micros} micros is not a whole number of ${currency} minor units (multiples of ${perMinor}); it is never rounded`,
    };
  return toSafe(micros / perMinor, label);
}

/** Unix seconds → ISO 8601 UTC timestamp. */
export function unixToIso(seconds: number): string {
  return new Date(seconds * 1000).toISOString();
}

/** An ISO timestamp with any offset → the same instant in UTC (the signal path accepts offsets too). */
export function isoUtc(time: string): string {
  return new Date(time).toISOString();
}
