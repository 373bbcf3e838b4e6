import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { addDays } from "../../lib/days";
import { divideHalfEven } from "../fx/money";
import {
  buildForecastSeries,
  runRateDay,
  runRateSpan,
  seriesComponents,
  showSeries,
  type TDayCommitments,
} from "./forecast-series";

const day = (plannedIn: bigint, plannedOut: bigint, subscriptions: bigint, adBudgets = 0n): TDayCommitments => ({
  plannedIn,
  plannedOut,
  subscriptions,
  adBudgets,
});

describe("run rate (§2.5)", () => {
  it("spreads a 90-day total over days k with floor((k+1)·T/90) − floor(k·T/90)", () => {
    // T = 100: day 0 gets floor(100/90) − 0 = 1; day 8 gets floor(900/90) − floor(800/90) = 10 − 8 = 2.
    expect(runRateDay(100n, 0)).toBe(1n);
    expect(runRateDay(100n, 8)).toBe(2n);
    expect(runRateSpan(100n, 0, 90)).toBe(100n);
    expect(runRateSpan(100n, 0, 30)).toBe(33n);
    // Negative totals (credits) floor too: −100 → day 0 gets floor(−100/90) = −2.
    expect(runRateDay(-100n, 0)).toBe(-2n);
    expect(runRateSpan(-100n, 0, 90)).toBe(-100n);
  });

  it("sums exactly over any span, whatever the total", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 15n), max: 10n ** 15n }), fc.nat(400), fc.nat(400), (total, a, b) => {
        const [start, end] = a <= b ? [a, b] : [b, a];
        let sum = 0n;
        for (let k = start; k < end; k++) sum += runRateDay(total, k);
        expect(sum).toBe(runRateSpan(total, start, end));
        if (start === 0 && end === 90) expect(sum).toBe(total);
      }),
    );
  });
});

describe("buildForecastSeries (§2.5)", () => {
  const today = "2027-03-01";

  it("lays out the days, both balance lines, totals, the ending and lowest balances", () => {
    const series = buildForecastSeries({
      today,
      from: today,
      to: addDays(today, 2),
      cashMinor: 1_000n,
      reservedMinor: 100n,
      committed: new Map([
        [today, day(0n, 50n, 0n)],
        [addDays(today, 1), day(0n, 0n, 900n)],
        [addDays(today, 2), day(300n, 0n, 0n)],
      ]),
      runRateIn: 90n,
      runRateOut: 180n,
    });
    expect(series.opening).toEqual({
      committed_in_minor: 0n,
      committed_out_minor: 0n,
      run_rate_in_minor: 0n,
      run_rate_out_minor: 0n,
    });
    expect(series.days).toEqual([
      {
        date: "2027-03-01",
        committed_in_minor: 0n,
        committed_out_minor: 50n,
        run_rate_in_minor: 1n,
        run_rate_out_minor: 2n,
        balance_committed_minor: 850n,
        balance_with_run_rate_minor: 849n,
      },
      {
        date: "2027-03-02",
        committed_in_minor: 0n,
        committed_out_minor: 900n,
        run_rate_in_minor: 1n,
        run_rate_out_minor: 2n,
        balance_committed_minor: -50n,
        balance_with_run_rate_minor: -52n,
      },
      {
        date: "2027-03-03",
        committed_in_minor: 300n,
        committed_out_minor: 0n,
        run_rate_in_minor: 1n,
        run_rate_out_minor: 2n,
        balance_committed_minor: 250n,
        balance_with_run_rate_minor: 247n,
      },
    ]);
    expect(series.totals).toEqual({
      planned_in_minor: 300n,
      planned_out_minor: 50n,
      subscriptions_minor: 900n,
      ad_budgets_minor: 0n,
      committed_in_minor: 300n,
      committed_out_minor: 950n,
      run_rate_in_minor: 3n,
      run_rate_out_minor: 6n,
    });
    expect(series.ending_balance_committed_minor).toBe(250n);
    expect(series.ending_balance_with_run_rate_minor).toBe(247n);
    expect(series.lowest_balance).toEqual({ date: "2027-03-02", amount_minor: -50n });
  });

  it("counts a day's ad budgets in its committed out, the opening's and the totals' (pinned-wave3 §1.3)", () => {
    const committed = new Map([
      [today, day(0n, 0n, 0n, 25n)],
      [addDays(today, 1), day(0n, 10n, 0n, 25n)],
      [addDays(today, 2), day(0n, 0n, 0n, 40n)],
    ]);
    const series = buildForecastSeries({
      today,
      from: addDays(today, 1),
      to: addDays(today, 2),
      cashMinor: 1000n,
      reservedMinor: 0n,
      committed,
      runRateIn: 0n,
      runRateOut: 0n,
    });
    expect(series.opening.committed_out_minor).toBe(25n);
    expect(series.days.map((d) => [d.committed_out_minor, d.balance_committed_minor])).toEqual([
      [35n, 940n],
      [40n, 900n],
    ]);
    expect(series.totals).toMatchObject({ planned_out_minor: 10n, ad_budgets_minor: 65n, committed_out_minor: 75n });
  });

  it("sums the days before `from` into the opening, and the balances start from it", () => {
    const committed = new Map([
      [today, day(10n, 20n, 30n)],
      [addDays(today, 4), day(0n, 5n, 0n)],
      [addDays(today, 5), day(0n, 0n, 7n)],
    ]);
    const series = buildForecastSeries({
      today,
      from: addDays(today, 5),
      to: addDays(today, 6),
      cashMinor: 1_000n,
      reservedMinor: 0n,
      committed,
      runRateIn: 900n,
      runRateOut: 0n,
    });
    expect(series.opening).toEqual({
      committed_in_minor: 10n,
      committed_out_minor: 55n,
      run_rate_in_minor: 50n,
      run_rate_out_minor: 0n,
    });
    // 1000 + 10 − 55 − 7 = 948; with run rate: + 50 (opening) + 10 (day 5).
    expect(series.days[0]).toMatchObject({
      date: addDays(today, 5),
      balance_committed_minor: 948n,
      balance_with_run_rate_minor: 1_008n,
    });
    expect(series.totals.subscriptions_minor).toBe(7n);
    expect(series.lowest_balance).toEqual({ date: addDays(today, 5), amount_minor: 948n });
  });

  it("has no balances without cash, and the earliest day wins a tie for the lowest", () => {
    const without = buildForecastSeries({
      today,
      from: today,
      to: addDays(today, 1),
      cashMinor: null,
      reservedMinor: 500n,
      committed: new Map(),
      runRateIn: 0n,
      runRateOut: 0n,
    });
    expect(without.days.map((d) => [d.balance_committed_minor, d.balance_with_run_rate_minor])).toEqual([
      [null, null],
      [null, null],
    ]);
    expect(without.ending_balance_committed_minor).toBeNull();
    expect(without.lowest_balance).toBeNull();
    const flat = buildForecastSeries({
      ...{ today, from: today, to: addDays(today, 2) },
      cashMinor: 5n,
      reservedMinor: 0n,
      committed: new Map(),
      runRateIn: 0n,
      runRateOut: 0n,
    });
    expect(flat.lowest_balance).toEqual({ date: today, amount_minor: 5n });
  });

  it("refuses a window that starts before today or ends before it starts", () => {
    const base = { cashMinor: 0n, reservedMinor: 0n, committed: new Map(), runRateIn: 0n, runRateOut: 0n };
    expect(() => buildForecastSeries({ ...base, today, from: addDays(today, -1), to: today })).toThrow(RangeError);
    expect(() => buildForecastSeries({ ...base, today, from: addDays(today, 2), to: addDays(today, 1) })).toThrow(RangeError);
  });
});

describe("showSeries: a series in a display currency (K5, pinned-wave3 §1.4)", () => {
  const today = "2027-03-01";
  const amount = fc.bigInt({ min: -(10n ** 12n), max: 10n ** 12n });
  const seriesArb = fc
    .record({
      openingDays: fc.nat(5),
      length: fc.integer({ min: 1, max: 40 }),
      cash: fc.option(amount, { nil: null }),
      reserved: fc.bigInt({ min: 0n, max: 10n ** 10n }),
      runRateIn: amount,
      runRateOut: amount,
      days: fc.array(fc.tuple(fc.nat(45), fc.bigInt({ min: 0n, max: 10n ** 9n }), amount, amount), { maxLength: 30 }),
    })
    .map((r) => {
      const committed = new Map<string, TDayCommitments>();
      for (const [k, plannedIn, plannedOut, subscriptions] of r.days)
        committed.set(addDays(today, k), day(plannedIn, plannedOut, subscriptions));
      return {
        input: {
          today,
          from: addDays(today, r.openingDays),
          to: addDays(today, r.openingDays + r.length - 1),
          cashMinor: r.cash,
          reservedMinor: r.reserved,
          committed,
          runRateIn: r.runRateIn,
          runRateOut: r.runRateOut,
        },
      };
    });
  /** A display rate: amount × num / den, half even (as convertMinor rounds). */
  const rateArb = fc.tuple(fc.integer({ min: 1, max: 50_000 }), fc.integer({ min: 1, max: 10_000 }));
  const convertWith =
    ([num, den]: [number, number]) =>
    (value: bigint) =>
      divideHalfEven(value * BigInt(num), BigInt(den));

  it("in the base (the identity) it is the series itself", () => {
    fc.assert(
      fc.property(seriesArb, ({ input }) => {
        const series = buildForecastSeries(input);
        const components = seriesComponents(series);
        expect(showSeries(series, (name) => components[name]!, input.cashMinor, input.reservedMinor)).toEqual(series);
      }),
    );
  });

  it("converts totals and days each on their own and recomputes the derived figures so the identities hold", () => {
    fc.assert(
      fc.property(seriesArb, rateArb, ({ input }, rate) => {
        const convert = convertWith(rate);
        const series = buildForecastSeries(input);
        const components = seriesComponents(series);
        const cash = input.cashMinor === null ? null : convert(input.cashMinor);
        const reserved = convert(input.reservedMinor);
        const shown = showSeries(series, (name) => convert(components[name]!), cash, reserved);
        // Each total and opening figure is its base figure converted once; each day's figure too.
        for (const key of [
          "planned_in_minor",
          "planned_out_minor",
          "subscriptions_minor",
          "run_rate_in_minor",
          "run_rate_out_minor",
        ] as const)
          expect(shown.totals[key]).toBe(convert(series.totals[key]));
        for (const key of Object.keys(series.opening) as Array<keyof typeof series.opening>)
          expect(shown.opening[key]).toBe(convert(series.opening[key]));
        shown.days.forEach((d, i) => {
          const b = series.days[i]!;
          expect(d.date).toBe(b.date);
          expect(d.run_rate_out_minor).toBe(convert(b.run_rate_out_minor));
          expect(d.balance_committed_minor).toBe(b.balance_committed_minor === null ? null : convert(b.balance_committed_minor));
        });
        // The derived figures: from the converted components.
        const t = shown.totals;
        const o = shown.opening;
        expect(t.committed_in_minor).toBe(t.planned_in_minor);
        expect(t.committed_out_minor).toBe(t.planned_out_minor + t.subscriptions_minor);
        const ending =
          cash === null
            ? null
            : cash - reserved + o.committed_in_minor - o.committed_out_minor + t.committed_in_minor - t.committed_out_minor;
        expect(shown.ending_balance_committed_minor).toBe(ending);
        expect(shown.ending_balance_with_run_rate_minor).toBe(
          ending === null
            ? null
            : ending + o.run_rate_in_minor - o.run_rate_out_minor + t.run_rate_in_minor - t.run_rate_out_minor,
        );
        // The lowest day is the base's, with its own converted balance.
        if (series.lowest_balance === null) expect(shown.lowest_balance).toBeNull();
        else
          expect(shown.lowest_balance).toEqual({
            date: series.lowest_balance.date,
            amount_minor: convert(series.lowest_balance.amount_minor),
          });
      }),
    );
  });
});
