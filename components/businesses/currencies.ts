// Currencies offered first in the panel; any other ISO 4217 code can still be typed in
// (the server decides what it accepts).
export const COMMON_CURRENCIES: ReadonlyArray<{ code: string; name: string }> = [
  { code: "EUR", name: "Euro" },
  { code: "USD", name: "US dollar" },
  { code: "GBP", name: "British pound" },
  { code: "CHF", name: "Swiss franc" },
  { code: "JPY", name: "Japanese yen" },
  { code: "CAD", name: "Canadian dollar" },
  { code: "AUD", name: "Australian dollar" },
  { code: "NZD", name: "New Zealand dollar" },
  { code: "SEK", name: "Swedish krona" },
  { code: "NOK", name: "Norwegian krone" },
  { code: "DKK", name: "Danish krone" },
  { code: "PLN", name: "Polish złoty" },
  { code: "CZK", name: "Czech koruna" },
  { code: "HUF", name: "Hungarian forint" },
  { code: "CNY", name: "Chinese yuan" },
  { code: "HKD", name: "Hong Kong dollar" },
  { code: "SGD", name: "Singapore dollar" },
  { code: "INR", name: "Indian rupee" },
  { code: "BRL", name: "Brazilian real" },
  { code: "MXN", name: "Mexican peso" },
  { code: "ZAR", name: "South African rand" },
  { code: "AED", name: "UAE dirham" },
];

export const OTHER_CURRENCY = "other";

export function isCommonCurrency(code: string): boolean {
  return COMMON_CURRENCIES.some((currency) => currency.code === code);
}
