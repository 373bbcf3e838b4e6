// ISO 4217 codes this service accepts: those the runtime's ICU knows (Intl), which is the
// current ISO list. Whether a rate source covers a code is the FX module's separate question.
import { AppError } from "../errors/app-error";

const KNOWN = new Set(Intl.supportedValuesOf("currency"));

export function isKnownCurrency(code: string): boolean {
  return KNOWN.has(code);
}

export function assertKnownCurrency(code: string, field: string): void {
  if (!isKnownCurrency(code)) throw AppError.invalidField(field, `${code} is not an ISO 4217 currency code`);
}
