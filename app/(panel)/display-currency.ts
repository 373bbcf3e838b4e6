// The read-model pages (/overview, /businesses/[id]) in the currency the owner picked
// (`?display_currency=`): loaded in it when the API can convert to it, else in the base currency
// with a line saying why (422 currency_unsupported or fx_unavailable), never an error page.
import { toAppError } from "@/server/errors/to-app-error";

export type TInDisplayCurrency<T> = {
  result: T;
  /** The display currency in effect: the one asked for, or the base currency. */
  currency: string;
  /** Why the asked-for currency is not shown, or null. */
  notice: string | null;
};

const CONVERSION_FAILURES = new Set(["currency_unsupported", "fx_unavailable"]);

/** `load(display)` in `requested` (undefined: the base currency), falling back to the base currency when the API cannot convert. */
export async function loadInDisplayCurrency<T>(
  requested: string | null,
  baseCurrency: string,
  load: (displayCurrency: string | undefined) => Promise<T>,
): Promise<TInDisplayCurrency<T>> {
  if (requested === null || requested === baseCurrency)
    return { result: await load(undefined), currency: baseCurrency, notice: null };
  try {
    return { result: await load(requested), currency: requested, notice: null };
  } catch (error) {
    const appError = toAppError(error);
    if (!CONVERSION_FAILURES.has(appError.code)) throw error;
    return {
      result: await load(undefined),
      currency: baseCurrency,
      notice: `Amounts cannot be shown in ${requested} (${appError.message.replace(/\.$/, "")}), so they are in ${baseCurrency}.`,
    };
  }
}
