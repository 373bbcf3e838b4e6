// What an aggregate says about the rates behind it: FxSummary (the envelope's fx) and
// fx_used[] (contract: Amounts and currency rules). Pure except toDisplayCurrency.
import { todayUtc } from "../../lib/days";
import type { TDbOrTx } from "../db/client";
import type { TFxInfo, TFxSummary, TFxUsed } from "./fx.schema";
import { resolveRates, type TFxOptions } from "./fx-service";
import { convertExact, divideHalfEven } from "./money";

export type TSummaryConversion = {
  /** The original currency. */
  from: string;
  /** The rate that took it to the base currency. */
  fx: TFxInfo;
  /** The converted amount, in the base currency (its absolute value weighs the share). */
  amountMinor: bigint;
};

export type TFxSummaryInput = {
  baseCurrency: string;
  displayCurrency?: string;
  conversions: TSummaryConversion[];
  /** The base → display conversion of the result (from toDisplayCurrency), when there is one. */
  displayFx?: TFxInfo;
  today?: string;
};

const abs = (value: bigint) => (value < 0n ? -value : value);

/**
 * FxSummary and fx_used[] of an aggregate:
 * - as_of: the oldest CURRENT rate used (snapshots are frozen facts, not estimates); today when
 *   no current rate was needed.
 * - stale: a current rate used is stale.
 * - estimated_share: share (0..1, 4 decimals, half even) of the absolute converted amount that
 *   went through a current non-identity rate; 1 when the result itself is shown in another
 *   currency at a current rate (displayFx), since all of it is then an estimate.
 * - source: the non-identity sources used, sorted and comma-separated; identity when none.
 * - fx_used: each distinct rate used (identity excluded), including base → display.
 */
export function buildFxSummary(input: TFxSummaryInput): { fx: TFxSummary; fx_used: TFxUsed[] } {
  const base = input.baseCurrency;
  const display = input.displayCurrency ?? base;
  const today = input.today ?? todayUtc();
  const displayFx = input.displayFx && display !== base && input.displayFx.source !== "identity" ? input.displayFx : undefined;

  // One pass over the conversions (a forecast's or an overview's are thousands, one per item):
  // no intermediate list per step.
  let asOf: string | null = null;
  let stale = false;
  const sources = new Set<string>();
  const currencies = new Set<string>();
  // Each distinct rate once; a later use of the same rate replaces the earlier one, in place.
  const distinct = new Map<string, TFxUsed>();
  const use = (from: string, to: string, fx: TFxInfo) => {
    if (fx.source === "identity") return;
    sources.add(fx.source);
    if (fx.kind === "current") {
      if (asOf === null || fx.as_of < asOf) asOf = fx.as_of;
      if (fx.stale) stale = true;
    }
    distinct.set(`${from}|${to}|${fx.rate}|${fx.as_of}|${fx.source}`, {
      from,
      to,
      rate: fx.rate,
      as_of: fx.as_of,
      source: fx.source,
      stale: fx.stale,
    });
  };

  let total = 0n;
  let estimated = 0n;
  for (const c of input.conversions) {
    currencies.add(c.from);
    use(c.from, base, c.fx);
    const amount = abs(c.amountMinor);
    total += amount;
    if (c.fx.kind === "current" && c.fx.source !== "identity") estimated += amount;
  }
  if (displayFx) use(base, display, displayFx);
  const share = displayFx ? 1 : total === 0n ? 0 : Number(divideHalfEven(estimated * 10_000n, total)) / 10_000;

  const fxUsed = [...distinct.values()].sort(
    (a, b) => a.from.localeCompare(b.from) || a.to.localeCompare(b.to) || a.as_of.localeCompare(b.as_of),
  );
  return {
    fx: {
      base_currency: base,
      display_currency: display,
      as_of: asOf ?? today,
      source: sources.size > 0 ? [...sources].sort().join(",") : "identity",
      stale,
      currencies: [...currencies].sort(),
      estimated_share: share,
    },
    fx_used: fxUsed,
  };
}

/**
 * Amounts in the base currency shown in `displayCurrency` (query display_currency=…): each
 * converted at today's (current) rate, rounded per amount (money.ts rule), exact whatever its
 * size (the answer refuses a figure beyond the exact range when it leaves). One rate lookup.
 */
export async function toDisplayCurrency(
  db: TDbOrTx,
  input: { baseCurrency: string; displayCurrency: string; amounts: readonly bigint[] },
  options: TFxOptions = {},
): Promise<{ amounts: bigint[]; fx: TFxInfo }> {
  const today = options.today ?? todayUtc();
  const pair = { from: input.baseCurrency, to: input.displayCurrency, on: today, kind: "current" as const };
  // The one rate, resolved once (even for no amount, so an unsupported currency is refused), then
  // each amount converted with it (a forecast shows thousands: each day's figures).
  const [fx] = await resolveRates(db, [pair], { ...options, today });
  return {
    amounts: input.amounts.map((amountMinor) => convertExact(amountMinor, pair.from, pair.to, fx!.rate)),
    fx: fx!,
  };
}
