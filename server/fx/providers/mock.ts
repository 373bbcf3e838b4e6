// FX_SOURCE=mock (the default): a fixed table, the same for every day, so development and
// tests never depend on the network. Resolved directly from this table (never stored): a
// conversion on any day uses these rates with as_of = that day, and is never stale.
// Base EUR like the ECB; every other pair is a cross rate through EUR.
import type { TFxProvider, TRateSet } from "./types";

/** 1 EUR = rate quote. Values are plausible reference rates, fixed for ever. */
export const MOCK_EUR_RATES: Readonly<Record<string, string>> = {
  AUD: "1.64580000",
  CAD: "1.47320000",
  CHF: "0.95120000",
  CZK: "25.18700000",
  DKK: "7.45830000",
  GBP: "0.85310000",
  JPY: "162.45000000",
  NOK: "11.61200000",
  NZD: "1.79940000",
  PLN: "4.30150000",
  SEK: "11.28450000",
  USD: "1.08420000",
};

const TABLE: ReadonlyMap<string, string> = new Map(Object.entries(MOCK_EUR_RATES));

export const mockProvider: TFxProvider = {
  source: "mock",
  base: "EUR",
  lookup: "fixed",
  table: TABLE,
  staleAfterDays: Infinity,
  currencies: Object.keys(MOCK_EUR_RATES),
  fetchRates: async (day: string): Promise<TRateSet[]> => [{ base: "EUR", day, rates: TABLE }],
};
