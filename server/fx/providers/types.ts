// One interface for every rate source. A source publishes, per day, how many units of each
// quote currency one unit of its base buys (ECB: 1 EUR = rate quote). The service derives
// every other pair from these through the base (cross rates, see money.ts).
import type { TFxSourceName } from "../fx.schema";

/** The rates of one publication day: 1 base = rates[quote] quote, 8-place strings. */
export type TRateSet = { base: string; day: string; rates: ReadonlyMap<string, string> };

export interface TFxProvider {
  readonly source: Exclude<TFxSourceName, "identity">;
  /** The currency every published rate is quoted against. */
  readonly base: string;
  /**
   * How lookups find a rate: `fixed` reads the provider's own table for any day (mock, never
   * stored); `stored` reads fx_rates rows written by refreshRates (ecb).
   */
  readonly lookup: "fixed" | "stored";
  /** Fixed sources: the rates (1 base = rate quote) used for every day. */
  readonly table?: ReadonlyMap<string, string>;
  /** A rate older than this many days (counted back from the day converted) is stale. */
  readonly staleAfterDays: number;
  /**
   * Currencies the source covers, besides the base. A stored source may cover more
   * (whatever its rows hold); a code outside both is currency_unsupported.
   */
  readonly currencies: readonly string[];
  /** The rate sets it publishes for `day` (ECB's daily feed: its latest day, whatever `day` is). */
  fetchRates(day: string): Promise<TRateSet[]>;
}
