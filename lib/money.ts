// Money in the panel: integer minor units + ISO 4217 code, converted with string arithmetic
// only (no floats), so "12.34" EUR is exactly 1234 and 1234 EUR always reads €12.34. Digits
// come from the shared currency table (lib/currencies.ts); Intl only adds symbols and grouping.
import { isoMinorUnits } from "./currencies";

/**
 * The number of minor-unit digits of a currency (2 for EUR, 0 for JPY, 3 for BHD, 2 for IDR):
 * ISO 4217, from the table the server uses too (never the browser's ICU, which disagrees for
 * 17 codes); 2 if unknown.
 */
export function currencyDigits(currency: string): number {
  return isoMinorUnits(currency.trim().toUpperCase()) ?? 2;
}

export type TMajorParse = { ok: true; minor: number } | { ok: false; message: string };

/**
 * "12.34" → 1234 (EUR), "1 200" → 1200 (JPY), "0.5" → 50. Refuses more decimals than the
 * currency has (never rounds), signs, exponents and amounts beyond the exact integer range.
 */
export function majorToMinor(input: string, currency: string): TMajorParse {
  const digits = currencyDigits(currency);
  const text = input.trim().replace(/[\s_']/g, "");
  const match = /^(\d*)(?:[.,](\d*))?$/.exec(text);
  if (!text || !match || (!match[1] && !match[2])) {
    return { ok: false, message: digits === 0 ? "Enter a whole amount, e.g. 500." : "Enter an amount such as 12.34." };
  }
  const whole = match[1] || "0";
  const fraction = (match[2] ?? "").replace(/0+$/, "");
  if (fraction.length > digits) {
    return {
      ok: false,
      message:
        digits === 0
          ? `${currency.toUpperCase()} has no minor unit: enter a whole amount.`
          : `${currency.toUpperCase()} has ${digits} decimal${digits === 1 ? "" : "s"}: enter at most ${digits}.`,
    };
  }
  const minorText = `${whole}${fraction.padEnd(digits, "0")}`.replace(/^0+(?=\d)/, "");
  const minor = BigInt(minorText);
  if (minor > BigInt(Number.MAX_SAFE_INTEGER)) return { ok: false, message: "That amount is too large." };
  return { ok: true, minor: Number(minor) };
}

/** 1234 → "12.34" (EUR), 500 → "500" (JPY): the plain decimal string, for inputs and CSV (bigint stays exact). */
export function minorToMajor(minor: number | bigint, currency: string): string {
  const digits = currencyDigits(currency);
  const value = BigInt(minor);
  const negative = value < 0n;
  const text = (negative ? -value : value).toString();
  if (digits === 0) return `${negative ? "-" : ""}${text}`;
  const padded = text.padStart(digits + 1, "0");
  const whole = padded.slice(0, -digits);
  const fraction = padded.slice(-digits);
  return `${negative ? "-" : ""}${whole}.${fraction}`;
}

/**
 * 1234, "EUR" → "€12.34" in the owner's locale; exact (the decimal string is formatted, not a
 * float). null (an amount the server cannot express exactly, beyond ±(2^53 − 1)) shows "—".
 */
export function formatMinor(minor: number | null, currency: string, locale = "en-US"): string {
  if (minor === null) return "—";
  const decimal = minorToMajor(minor, currency);
  const digits = currencyDigits(currency);
  try {
    const format = new Intl.NumberFormat(locale, {
      style: "currency",
      currency,
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
    });
    // Intl formats a decimal string exactly (ECMA-402 "Intl.NumberFormat v3").
    return format.format(decimal as unknown as number);
  } catch {
    return `${decimal} ${currency}`;
  }
}
