// Currency conversion for every module: the rate for a day (the latest published on or before
// it), cross rates through the source's base (EUR), exact arithmetic (money.ts), and the two
// contract errors. Callers convert BEFORE they write, so a refusal leaves nothing behind.
//
//   currency_unsupported (422): the source does not cover a currency (or it is not ISO 4217).
//   fx_unavailable (422): the source covers it but has no rate on or before the day (for
//     example FX_SOURCE=ecb before the first refresh). Never 1:1 for lack of a rate.
//
// The day used is min(on, today UTC): a rate cannot come from the future, so a future day
// (a planned expense) converts at the latest rate. `stale` compares the rate's day with it.
import { isCurrencyCode } from "../../lib/currencies";
import { daysBetween, todayUtc } from "../../lib/days";
import type { TDbOrTx } from "../db/client";
import { AppError } from "../errors/app-error";
import type { TFxInfo, TFxRates } from "./fx.schema";
import { AmountRangeError, convertBetween, convertExact, crossRate } from "./money";
import { getFxProvider } from "./providers";
import { identityFx } from "./providers/identity";
import type { TFxProvider } from "./providers/types";
import { findLegRates, legKey, storedQuotes, type TLeg, type TLegRate } from "./rate-store";

export type TFxKind = TFxInfo["kind"];
export type TRatePair = { from: string; to: string; on: string; kind: TFxKind };
export type TConvertInput = TRatePair & { amountMinor: bigint };
export type TConverted = { amountMinor: bigint; fx: TFxInfo };

/** Overrides for tests and jobs: another provider than FX_SOURCE's, another "today". */
export type TFxOptions = { provider?: TFxProvider; today?: string };

export type TRateOutcome = { ok: true; fx: TFxInfo } | { ok: false; error: AppError };

const DAY = /^\d{4}-\d{2}-\d{2}$/;

function effectiveDay(on: string, today: string): string {
  if (!DAY.test(on) || Number.isNaN(Date.parse(`${on}T00:00:00Z`)))
    throw AppError.invalidField("date", "must be a date YYYY-MM-DD");
  return on < today ? on : today;
}

function unsupported(currency: string, provider: TFxProvider): AppError {
  return new AppError("currency_unsupported", `The rate source (${provider.source}) does not cover ${currency}.`, {
    details: { currency, source: provider.source },
  });
}

function unavailable(pair: TRatePair, day: string, missing: string, provider: TFxProvider): AppError {
  return new AppError("fx_unavailable", `No ${provider.source} rate for ${missing} on or before ${day}; nothing was written.`, {
    details: { from: pair.from, to: pair.to, on: day, currency: missing, source: provider.source },
  });
}

/**
 * The rate for each pair, or the error it would raise: one query for all pairs on a stored
 * source, none on the mock. The building block of convertMany and GET /v1/fx/rates.
 */
export async function resolveRatesSettled(db: TDbOrTx, pairs: TRatePair[], options: TFxOptions = {}): Promise<TRateOutcome[]> {
  const provider = options.provider ?? getFxProvider();
  const today = options.today ?? todayUtc();
  const days = pairs.map((pair) => effectiveDay(pair.on, today));

  // Coverage: the provider's list, plus (stored sources) whatever its rows hold.
  const covered = new Set([provider.base, ...provider.currencies]);
  const needsRows = pairs.some((p) => p.from !== p.to && [p.from, p.to].some((c) => !covered.has(c) && isCurrencyCode(c)));
  if (provider.lookup === "stored" && needsRows)
    for (const q of await storedQuotes(db, provider.source, provider.base)) covered.add(q);

  // Every leg base → currency that a pair needs, looked up at once.
  const legs: TLeg[] = [];
  pairs.forEach((pair, i) => {
    if (pair.from === pair.to) return;
    for (const currency of [pair.from, pair.to]) {
      if (currency !== provider.base && covered.has(currency)) legs.push({ quote: currency, day: days[i]! });
    }
  });
  let legRates = new Map<string, TLegRate | null>();
  if (provider.lookup === "stored") legRates = await findLegRates(db, provider.source, provider.base, legs);

  const legOf = (currency: string, day: string): TLegRate | null => {
    if (currency === provider.base) return { rate: "1", asOf: day };
    if (provider.lookup === "fixed") {
      const rate = provider.table?.get(currency);
      return rate ? { rate, asOf: day } : null;
    }
    return legRates.get(legKey({ quote: currency, day })) ?? null;
  };

  return pairs.map((pair, i): TRateOutcome => {
    const day = days[i]!;
    if (pair.from === pair.to) {
      if (!isCurrencyCode(pair.from)) return { ok: false, error: unsupported(pair.from, provider) };
      return { ok: true, fx: identityFx(day, pair.kind) };
    }
    for (const currency of [pair.from, pair.to]) {
      if (!isCurrencyCode(currency) || !covered.has(currency)) return { ok: false, error: unsupported(currency, provider) };
    }
    const fromLeg = legOf(pair.from, day);
    if (!fromLeg) return { ok: false, error: unavailable(pair, day, pair.from, provider) };
    const toLeg = legOf(pair.to, day);
    if (!toLeg) return { ok: false, error: unavailable(pair, day, pair.to, provider) };
    const asOf = fromLeg.asOf < toLeg.asOf ? fromLeg.asOf : toLeg.asOf;
    return {
      ok: true,
      fx: {
        rate: crossRate(fromLeg.rate, toLeg.rate),
        as_of: asOf,
        source: provider.source,
        kind: pair.kind,
        stale: daysBetween(asOf, day) > provider.staleAfterDays,
      },
    };
  });
}

/** The rate for each pair; throws the first pair's error (unsupported before unavailable). */
export async function resolveRates(db: TDbOrTx, pairs: TRatePair[], options: TFxOptions = {}): Promise<TFxInfo[]> {
  const outcomes = await resolveRatesSettled(db, pairs, options);
  const failed = outcomes.filter((o) => !o.ok).map((o) => o.error);
  const first = failed.find((e) => e.code === "currency_unsupported") ?? failed[0];
  if (first) throw first;
  return outcomes.map((o) => (o as { fx: TFxInfo }).fx);
}

/**
 * Converts minor units from one currency to another at the rate for `on` (the latest
 * published rate on or before that day; identity when from === to). Throws
 * AppError("currency_unsupported") when the source does not cover a currency,
 * AppError("fx_unavailable") when there is no rate at all (never 1:1 for lack of a rate).
 */
export async function convertAmount(db: TDbOrTx, input: TConvertInput, options: TFxOptions = {}): Promise<TConverted> {
  const [converted] = await convertMany(db, [input], options);
  return converted!;
}

/**
 * The same for many amounts at once: one rate query for the whole list (none on the mock).
 * A result beyond ±(2^53 − 1) throws AmountRangeError (400 validation_error on amount_minor).
 */
export async function convertMany(db: TDbOrTx, items: TConvertInput[], options: TFxOptions = {}): Promise<TConverted[]> {
  const rates = await resolveRates(db, items, options);
  return items.map((item, i) => {
    const fx = rates[i]!;
    return { amountMinor: convertBetween(item.amountMinor, item.from, item.to, fx.rate), fx };
  });
}

/**
 * The same for read models, which sum what they convert: each result exact whatever its size,
 * never refused here. A figure of their answer beyond the exact range is refused where it
 * leaves as JSON (toJsonAmount: 422 amount_out_of_range naming it), not as a 400 on an input.
 */
export async function convertManyExact(db: TDbOrTx, items: TConvertInput[], options: TFxOptions = {}): Promise<TConverted[]> {
  const rates = await resolveRates(db, items, options);
  return items.map((item, i) => {
    const fx = rates[i]!;
    return { amountMinor: convertExact(item.amountMinor, item.from, item.to, fx.rate), fx };
  });
}

/**
 * For reads of stored records, which never fail: each item's conversion, or the error its
 * rate raised (currency_unsupported / fx_unavailable), or amountMinor null with its rate when
 * the result is beyond the exact range (never rounded). One rate query for the whole list.
 */
export type TConvertOutcome =
  | { ok: true; amountMinor: bigint; fx: TFxInfo }
  | { ok: true; amountMinor: null; fx: TFxInfo; outOfRange: AmountRangeError }
  | { ok: false; error: AppError };

export async function convertManySettled(
  db: TDbOrTx,
  items: TConvertInput[],
  options: TFxOptions = {},
): Promise<TConvertOutcome[]> {
  const rates = await resolveRatesSettled(db, items, options);
  return items.map((item, i): TConvertOutcome => {
    const rate = rates[i]!;
    if (!rate.ok) return rate;
    try {
      return { ok: true, amountMinor: convertBetween(item.amountMinor, item.from, item.to, rate.fx.rate), fx: rate.fx };
    } catch (error) {
      if (error instanceof AmountRangeError) return { ok: true, amountMinor: null, fx: rate.fx, outOfRange: error };
      throw error;
    }
  });
}

/** The owner's base currency (the default base of GET /v1/fx/rates). */
async function ownerBaseCurrency(db: TDbOrTx, ownerId: string): Promise<string> {
  const owner = await db.owner.findUnique({ where: { id: ownerId }, select: { baseCurrency: true } });
  if (!owner) throw new AppError("unauthenticated", "The owner of this credential no longer exists.");
  return owner.baseCurrency;
}

/**
 * GET /v1/fx/rates: 1 base = rate quote on `date` (default today) for the asked quotes (default
 * every currency the source covers). An asked quote that cannot be answered is refused
 * (currency_unsupported / fx_unavailable); the default list leaves out quotes without a rate and
 * is fx_unavailable only when no rate at all is known.
 */
export async function getFxRates(
  db: TDbOrTx,
  ownerId: string,
  input: { date?: string; base?: string; quotes?: string[] },
  options: TFxOptions = {},
): Promise<TFxRates> {
  const provider = options.provider ?? getFxProvider();
  const today = options.today ?? todayUtc();
  const date = input.date ?? today;
  const base = input.base ?? (await ownerBaseCurrency(db, ownerId));
  const asked = input.quotes && input.quotes.length > 0 ? [...new Set(input.quotes)] : undefined;
  let quotes = asked;
  if (!quotes) {
    const all = new Set([provider.base, ...provider.currencies]);
    if (provider.lookup === "stored") for (const q of await storedQuotes(db, provider.source, provider.base)) all.add(q);
    all.delete(base);
    quotes = [...all];
  }
  const pairs = quotes.map((quote) => ({ from: base, to: quote, on: date, kind: "current" as const }));
  const outcomes = await resolveRatesSettled(db, pairs, { provider, today });
  const failures = outcomes.flatMap((o) => (o.ok ? [] : [o.error]));
  const baseFailure = failures.find((e) => (e.details as { currency?: string }).currency === base);
  if (asked || baseFailure || (failures.length > 0 && failures.length === outcomes.length)) {
    const first = failures.find((e) => e.code === "currency_unsupported") ?? baseFailure ?? failures[0];
    if (first) throw first;
  }
  const rates = quotes
    .flatMap((quote, i) => {
      const outcome = outcomes[i]!;
      return outcome.ok ? [{ quote, rate: outcome.fx.rate, as_of: outcome.fx.as_of, stale: outcome.fx.stale }] : [];
    })
    .sort((a, b) => a.quote.localeCompare(b.quote));
  return { base, date, source: provider.source, rates };
}
