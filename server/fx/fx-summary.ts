// What an aggregate says about the rates behind it: FxSummary (the envelope's fx) and
// fx_used[] (contract: Amounts and currency rules). Pure except toDisplayCurrency.
import { todayUtc } from "../../lib/days";
import type { TDbOrTx } from "../db/client";
import type { TFxInfo, TFxSummary, TFxUsed } from "./fx.schema";
import { convertMany, type TFxOptions } from "./fx-service";
import { divideHalfEven } from "./money";

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
  const used: Array<TFxUsed & { kind: TFxInfo["kind"] }> = input.conversions.map((c) => ({
    from: c.from,
    to: base,
    rate: c.fx.rate,
    as_of: c.fx.as_of,
    source: c.fx.source,
    stale: c.fx.stale,
    kind: c.fx.kind,
  }));
  const displayFx = input.displayFx && display !== base && input.displayFx.source !== "identity" ? input.displayFx : undefined;
  if (displayFx) used.push({ from: base, to: display, ...displayFx });

  const real = used.filter((u) => u.source !== "identity");
  const current = real.filter((u) => u.kind === "current");
  const asOf = current.reduce<string | null>((oldest, u) => (oldest === null || u.as_of < oldest ? u.as_of : oldest), null);

  let total = 0n;
  let estimated = 0n;
  for (const c of input.conversions) {
    total += abs(c.amountMinor);
    if (c.fx.kind === "current" && c.fx.source !== "identity") estimated += abs(c.amountMinor);
  }
  const share = displayFx ? 1 : total === 0n ? 0 : Number(divideHalfEven(estimated * 10_000n, total)) / 10_000;

  const sources = [...new Set(real.map((u) => u.source))].sort();
  const distinct = new Map<string, TFxUsed>();
  for (const { kind: _kind, ...u } of real) distinct.set([u.from, u.to, u.rate, u.as_of, u.source].join("|"), u);
  const fxUsed = [...distinct.values()].sort(
    (a, b) => a.from.localeCompare(b.from) || a.to.localeCompare(b.to) || a.as_of.localeCompare(b.as_of),
  );

  return {
    fx: {
      base_currency: base,
      display_currency: display,
      as_of: asOf ?? today,
      source: sources.length > 0 ? sources.join(",") : "identity",
      stale: current.some((u) => u.stale),
      currencies: [...new Set(input.conversions.map((c) => c.from))].sort(),
      estimated_share: share,
    },
    fx_used: fxUsed,
  };
}

/**
 * Amounts in the base currency shown in `displayCurrency` (query display_currency=…): each
 * converted at today's (current) rate, rounded per amount (money.ts rule). One rate lookup.
 */
export async function toDisplayCurrency(
  db: TDbOrTx,
  input: { baseCurrency: string; displayCurrency: string; amounts: readonly bigint[] },
  options: TFxOptions = {},
): Promise<{ amounts: bigint[]; fx: TFxInfo }> {
  const today = options.today ?? todayUtc();
  const pair = { from: input.baseCurrency, to: input.displayCurrency, on: today, kind: "current" as const };
  // Converting a zero-length list still resolves the rate, so an unsupported currency is refused.
  const converted = await convertMany(
    db,
    [{ ...pair, amountMinor: 0n }, ...input.amounts.map((amountMinor) => ({ ...pair, amountMinor }))],
    {
      ...options,
      today,
    },
  );
  return { amounts: converted.slice(1).map((c) => c.amountMinor), fx: converted[0]!.fx };
}
