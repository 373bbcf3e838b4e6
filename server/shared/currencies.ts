// The server's reading of the one currency table (lib/currencies.ts, shared with the panel):
// the contract's errors for a code outside it. The table decides which codes exist and their
// minor units, never the runtime's ICU; whether a rate source covers a code is the FX module's
// separate question.
import { AppError } from "../errors/app-error";
import { isCurrencyCode, isoMinorUnits } from "../../lib/currencies";

/** A code outside the table: 400 validation_error naming the field. */
export function assertKnownCurrency(code: string, field: string): void {
  if (!isCurrencyCode(code)) throw AppError.invalidField(field, `${code} is not an ISO 4217 currency code`);
}

/** ISO 4217 minor units of a currency (JPY 0, EUR 2, KWD 3). A code outside the table: currency_unsupported. */
export function currencyDigits(code: string): number {
  const digits = isoMinorUnits(code);
  if (digits === undefined) throw new AppError("currency_unsupported", `${code} is not an ISO 4217 currency code.`);
  return digits;
}
