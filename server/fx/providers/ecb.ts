// FX_SOURCE=ecb: the European Central Bank's euro foreign exchange reference rates, published
// on TARGET business days around 16:00 CET (eurofxref-daily.xml: the latest day; the same
// format with many days is eurofxref-hist-90d.xml, which this parser reads too). Stored per
// day in fx_rates by refreshRates; lookups read the stored rows.
import { isCalendarDay } from "../../../lib/days";
import { ECB_DEFAULT_URL, ECB_TIMEOUT_MS } from "../../env";
import { formatRate } from "../money";
import type { TFxProvider, TRateSet } from "./types";
/** Largest document read (the 90-day history is about 30 KB; the full history is not meant). */
const MAX_BYTES = 2 * 1024 * 1024;

/**
 * A rate older than 5 days is stale. The longest regular gap between two publications:
 * Thursday's rate is still the latest on the Tuesday morning after Easter (Good Friday and
 * Easter Monday are TARGET holidays, and the day's rates appear only at about 16:00 CET).
 */
export const ECB_STALE_AFTER_DAYS = 5;

/** The currencies the ECB publishes reference rates for (besides EUR); BGN until 2025. */
// prettier-ignore
export const ECB_CURRENCIES = [
  "AUD", "BGN", "BRL", "CAD", "CHF", "CNY", "CZK", "DKK", "GBP", "HKD", "HUF", "IDR", "ILS", "INR", "ISK",
  "JPY", "KRW", "MXN", "MYR", "NOK", "NZD", "PHP", "PLN", "RON", "SEK", "SGD", "THB", "TRY", "USD", "ZAR",
] as const;

const TIME_CUBE = /<Cube\s+time\s*=\s*["'](\d{4}-\d{2}-\d{2})["']\s*>([\s\S]*?)<\/Cube>/g;
const RATE_CUBE = /<Cube\s+currency\s*=\s*["']([A-Za-z]{3})["']\s+rate\s*=\s*["']([0-9]+(?:\.[0-9]+)?)["']\s*\/>/g;

/** Parses an ECB eurofxref document into one rate set per day, newest first. Throws when malformed. */
export function parseEcbXml(xml: string): TRateSet[] {
  if (!xml.includes("eurofxref")) throw new Error("Not an ECB eurofxref document.");
  const sets: TRateSet[] = [];
  for (const [, day, body] of xml.matchAll(TIME_CUBE)) {
    if (!isCalendarDay(day!)) {
      throw new Error(`ECB document: invalid day ${day}.`);
    }
    const rates = new Map<string, string>();
    for (const [, currency, rate] of body!.matchAll(RATE_CUBE)) {
      if (Number(rate) <= 0) throw new Error(`ECB document: non-positive rate for ${currency} on ${day}.`);
      rates.set(currency!.toUpperCase(), formatRate(rate!));
    }
    if (rates.size === 0) throw new Error(`ECB document: no rates on ${day}.`);
    sets.push({ base: "EUR", day: day!, rates });
  }
  if (sets.length === 0) throw new Error("ECB document: no <Cube time=…> found.");
  return sets.sort((a, b) => (a.day < b.day ? 1 : -1));
}

/** Reads the document at `url` with a timeout; any HTTP or parse problem throws. */
export async function fetchEcbRates(url: string, timeoutMs = ECB_TIMEOUT_MS): Promise<TRateSet[]> {
  const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), redirect: "follow" });
  if (!response.ok) throw new Error(`ECB rates: ${url} answered ${response.status}.`);
  const length = Number(response.headers.get("content-length") ?? 0);
  if (length > MAX_BYTES) throw new Error(`ECB rates: document too large (${length} bytes).`);
  const text = await response.text();
  if (text.length > MAX_BYTES) throw new Error(`ECB rates: document too large (${text.length} characters).`);
  return parseEcbXml(text);
}

export function createEcbProvider(options: { url?: string; timeoutMs?: number } = {}): TFxProvider {
  const url = options.url ?? ECB_DEFAULT_URL;
  return {
    source: "ecb",
    base: "EUR",
    lookup: "stored",
    staleAfterDays: ECB_STALE_AFTER_DAYS,
    currencies: ECB_CURRENCIES,
    fetchRates: () => fetchEcbRates(url, options.timeoutMs),
  };
}
