// Exact money arithmetic, pure (no I/O). Amounts are BigInt minor units; rates are decimal
// strings. Nothing here goes through a binary float.
//
// THE rounding rules (the only two places anything is rounded):
//   1. A rate is kept with exactly 8 decimal places. A cross rate (from → to through EUR) is
//      computed exactly as rate(EUR→to) / rate(EUR→from) and rounded ONCE to 8 places,
//      half to even (banker's rounding).
//   2. An amount is converted with that 8-place rate, exactly, and rounded ONCE to the
//      target currency's minor unit, half to even:
//        target_minor = round_half_even(amount_minor × rate × 10^(target_digits − source_digits))
//      So anyone holding amount_minor and the rate shown in FxInfo can recompute the result.
//   Half-even is symmetric for negative amounts (a refund converts to minus the converted
//   payment) and unbiased over many conversions (no drift up on sums of halves).
import { AppError } from "../errors/app-error";
import { currencyDigits } from "../shared/currencies";

// Kept for server/imports, server/ingest and server/reconciliation, which still import these
// from here (issue #12: the lead switches them to lib/days.ts and server/shared/currencies.ts
// at merge and removes these two lines).

/** Decimal places of every rate the service stores, shows or uses. */
export const RATE_SCALE = 8;

/**
 * The largest magnitude of minor units the service stores or shows: 2^53 − 1, the exact
 * integer range of a JSON number. An amount beyond it, or whose conversion is beyond it, is
 * refused before anything is written (reads show a stored one as null, never rounded).
 */
export const MAX_EXACT_MINOR = BigInt(Number.MAX_SAFE_INTEGER);

/** Whether minor units are within ±(2^53 − 1). */
export function isExactMinor(value: bigint): boolean {
  return value <= MAX_EXACT_MINOR && value >= -MAX_EXACT_MINOR;
}

/** The JSON number of minor units, or null when it is beyond the exact range (reads of stored data). */
export function exactMinorOrNull(value: bigint | null): number | null {
  return value !== null && isExactMinor(value) ? Number(value) : null;
}

/**
 * A conversion whose result is beyond the exact range: a validation_error naming amount_minor
 * (the amount the caller gave), so a request answers 400 and a batch rejects the item.
 * The base-currency change turns it into its own 422 (server/fx/rebase-owner.ts).
 */
export class AmountRangeError extends AppError {
  constructor(
    readonly amountMinor: bigint,
    readonly from: string,
    readonly to: string,
  ) {
    const message = `${amountMinor} ${from} converted to ${to} is beyond the exact integer range ±(2^53 − 1)`;
    super("validation_error", `amount_minor: ${message}`, { details: { issues: [{ path: "amount_minor", message }] } });
  }
}

/** A decimal as an integer and a power of ten: value = units / 10^scale. */
export type TDecimal = { units: bigint; scale: number };

const DECIMAL = /^([+-]?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;

/** Parses a decimal string ("1.0842", "-3", "1e-8") exactly. */
export function parseDecimal(text: string): TDecimal {
  const match = DECIMAL.exec(text.trim());
  if (!match) throw new Error(`Not a decimal number: ${JSON.stringify(text)}`);
  const [, sign, whole, fraction = "", exponent = "0"] = match;
  let units = BigInt(`${whole}${fraction}`);
  let scale = fraction.length - Number(exponent);
  if (scale < 0) {
    units *= 10n ** BigInt(-scale);
    scale = 0;
  }
  return { units: sign === "-" ? -units : units, scale };
}

/** A positive rate string, validated. */
function parseRate(rate: string): TDecimal {
  const parsed = parseDecimal(rate);
  if (parsed.units <= 0n) throw new Error(`A rate must be positive: ${rate}`);
  return parsed;
}

/** numerator / denominator rounded to an integer, half to even (denominator ≠ 0). */
export function divideHalfEven(numerator: bigint, denominator: bigint): bigint {
  if (denominator === 0n) throw new RangeError("Division by zero");
  if (denominator < 0n) {
    numerator = -numerator;
    denominator = -denominator;
  }
  const negative = numerator < 0n;
  const magnitude = negative ? -numerator : numerator;
  let quotient = magnitude / denominator;
  const twiceRemainder = (magnitude % denominator) * 2n;
  if (twiceRemainder > denominator || (twiceRemainder === denominator && quotient % 2n === 1n)) quotient += 1n;
  return negative ? -quotient : quotient;
}

/** Units at 10^-8 as the 8-place string ("108420000" → "1.08420000"). */
function unitsToRate(units: bigint): string {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(RATE_SCALE + 1, "0");
  const text = `${digits.slice(0, -RATE_SCALE)}.${digits.slice(-RATE_SCALE)}`;
  return negative ? `-${text}` : text;
}

/** A decimal rounded (half to even) to exactly 8 places. */
function toRateString(value: TDecimal): string {
  const shift = RATE_SCALE - value.scale;
  const units = shift >= 0 ? value.units * 10n ** BigInt(shift) : divideHalfEven(value.units, 10n ** BigInt(-shift));
  return unitsToRate(units);
}

/**
 * A rate with exactly 8 decimal places. Strings are rounded half to even when they carry
 * more places; Prisma Decimals (stored as DECIMAL(24,8)) are exact already.
 */
export function formatRate(rate: string | { toFixed(places: number): string }): string {
  return toRateString(parseDecimal(typeof rate === "string" ? rate : rate.toFixed(RATE_SCALE)));
}

/**
 * The cross rate from → to when both are quoted against one base (EUR):
 * rate(from→to) = rate(base→to) / rate(base→from), exact, then rounded once to 8 places
 * (half to even). Pass "1" for the base itself.
 */
export function crossRate(baseToFrom: string, baseToTo: string): string {
  const from = parseRate(baseToFrom);
  const to = parseRate(baseToTo);
  // (to.units / 10^to.scale) / (from.units / 10^from.scale) × 10^8
  const numerator = to.units * 10n ** BigInt(from.scale + RATE_SCALE);
  const denominator = from.units * 10n ** BigInt(to.scale);
  return unitsToRate(divideHalfEven(numerator, denominator));
}

/**
 * Converts minor units with a rate (1 source unit = rate target units), rounding once to
 * the target's minor unit, half to even (see the rules at the top of this file).
 */
export function convertMinor(amountMinor: bigint, fromDigits: number, toDigits: number, rate: string): bigint {
  const { units, scale } = parseRate(rate);
  // amount × (units / 10^scale) × 10^(toDigits − fromDigits), as one fraction.
  const up = toDigits - fromDigits;
  const numerator = amountMinor * units * (up > 0 ? 10n ** BigInt(up) : 1n);
  const denominator = 10n ** BigInt(scale) * (up < 0 ? 10n ** BigInt(-up) : 1n);
  return divideHalfEven(numerator, denominator);
}

/**
 * Converts between two currency codes: THE conversion every path uses (writes, ingest,
 * reads, the base-currency change). Exact whatever its size (a bigint).
 */
export function convertExact(amountMinor: bigint, from: string, to: string, rate: string): bigint {
  return from === to ? amountMinor : convertMinor(amountMinor, currencyDigits(from), currencyDigits(to), rate);
}

/** convertExact for an amount to store or show as it is: a result beyond ±(2^53 − 1) throws AmountRangeError. */
export function convertBetween(amountMinor: bigint, from: string, to: string, rate: string): bigint {
  const converted = convertExact(amountMinor, from, to, rate);
  if (!isExactMinor(converted)) throw new AmountRangeError(amountMinor, from, to);
  return converted;
}
