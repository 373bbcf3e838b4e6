// ISO 4217 codes this service accepts: the one currency table, lib/currencies.ts (shared with
// the panel), never the runtime's ICU. Whether a rate source covers a code is the FX module's
// separate question.
import { AppError } from "../errors/app-error";
import { isCurrencyCode } from "../../lib/currencies";

export function isKnownCurrency(code: string): boolean {
  return isCurrencyCode(code);
}

export function assertKnownCurrency(code: string, field: string): void {
  if (!isKnownCurrency(code)) throw AppError.invalidField(field, `${code} is not an ISO 4217 currency code`);
}
