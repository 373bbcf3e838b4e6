// SaaS metrics (§2.7) on both engines: a hand-computed business (MRR at both ends, each
// movement, customers, churn, NRR, ARR with the remainders, ARPA half even, signals, the latest
// movements, by_month); the property that the movements sum to MRR(E) − MRR(S) and match a
// reference model for random subscription histories; multi-currency sums converted once per
// currency; display_currency; the access rules (agents with finances:observe covering the
// business, 403 audited, 404, 400).
import { randomUUID } from "node:crypto";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays, daysBetween } from "../../lib/days";
import { createTestApi, type TTestApi } from "../../test/helpers/api";
import { expectApiError } from "../../test/helpers/api-error";
import { businessGrant, createdData, seedAgent, seedIntegration } from "../../test/helpers/seed";
import { convertMany } from "../fx/fx-service";
import { divideHalfEven } from "../fx/money";
import { ingestEvents, ingestSignals } from "../ingest/ingest-service";
import { openOwnerSession } from "../sessions/session-service";
import { fixedClock } from "../shared/clock";

const NOW = new Date("2026-05-10T12:00:00Z");
const TODAY = "2026-05-10";
let api: TTestApi;

beforeAll(async () => {
  api = await createTestApi({ clock: fixedClock(NOW), env: { FX_SOURCE: "mock" } });
});
afterAll(async () => api?.close());

type TOwner = { ownerId: string; token: string };
type TBusiness = { id: string; billing: string };

async function newOwner(baseCurrency = "EUR"): Promise<TOwner> {
  const owner = await api.db.owner.create({
    data: { plan: "business", email: `saas-${randomUUID()}@example.test`, baseCurrency, baseCurrencyConfirmed: true },
  });
  const { token } = await openOwnerSession(api.db, { ownerId: owner.id, channel: "api" });
  return { ownerId: owner.id, token };
}

async function newBusiness(o: TOwner): Promise<TBusiness> {
  const business = createdData(
    await api.call("POST", "/v1/businesses", { token: o.token, body: { name: `SaaS ${randomUUID()}`, currency: "EUR" } }),
    "a business",
  );
  const billing = await seedIntegration(api.db, {
    ownerId: o.ownerId,
    provider: "billing_a",
    businessId: business.id,
    createdAt: new Date("2026-01-01T00:00:00Z"),
    lastSyncAt: new Date("2026-05-10T10:00:00Z"),
  });
  return { id: business.id, billing };
}

type TChangeItem = {
  on: string;
  delta: number;
  sub?: string;
  cust?: string;
  change?: string;
  mrr?: number;
  remainder?: number;
  plan?: string;
  currency?: string;
};

async function ingestChanges(o: TOwner, b: TBusiness, items: TChangeItem[]) {
  const result = await ingestEvents(
    api.db,
    o.ownerId,
    items.map((item) => ({
      integration_id: b.billing,
      external_id: `sc_${randomUUID()}`,
      type: "subscription_change",
      state: "actual",
      amount_minor: item.delta,
      currency: item.currency ?? "EUR",
      occurred_on: item.on,
      source_type: "PAYMENTS_API",
      payload: {
        ...(item.sub === undefined ? {} : { subscription_id: item.sub }),
        ...(item.cust === undefined ? {} : { customer_id: item.cust }),
        ...(item.change === undefined ? {} : { change: item.change }),
        ...(item.mrr === undefined ? {} : { mrr_minor: item.mrr }),
        ...(item.remainder === undefined ? {} : { mrr_remainder_minor: item.remainder }),
        ...(item.plan === undefined ? {} : { plan: item.plan }),
      },
    })),
    { now: NOW },
  );
  expect(result.rejected, JSON.stringify(result.rejected)).toEqual([]);
}

async function metrics(o: TOwner, b: TBusiness, query = "") {
  const response = await api.call("GET", `/v1/businesses/${b.id}/saas-metrics${query ? `?${query}` : ""}`, { token: o.token });
  expect(response.status, response.text).toBe(200);
  return response.body;
}

describe("a hand-computed business", () => {
  // S = 2026-02-28: A 1000 (c1), B 2000 (c2), C 500 (c3) → MRR(S) 3500, 3 customers; D (c4) churned before S.
  // March: A +500, B −800. April: C churns, E (c5) new 700 (remainder 5), D reactivates 300, F (c1's second) new 200.
  // E = 2026-04-30: A 1500, B 1200, D 300, E 700, F 200 → 3900; customers c1, c2, c4, c5.
  const history: TChangeItem[] = [
    { on: "2026-01-10", delta: 1000, sub: "sub_A", cust: "c1", change: "new", mrr: 1000, plan: "pro" },
    { on: "2026-02-01", delta: 2000, sub: "sub_B", cust: "c2", change: "new", mrr: 2000, plan: "team" },
    { on: "2026-02-15", delta: 500, sub: "sub_C", cust: "c3", change: "new", mrr: 500 },
    { on: "2026-01-05", delta: 300, sub: "sub_D", cust: "c4", change: "new", mrr: 300 },
    { on: "2026-02-20", delta: -300, sub: "sub_D", cust: "c4", change: "churn", mrr: 0 },
    { on: "2026-03-05", delta: 500, sub: "sub_A", cust: "c1", change: "expansion", mrr: 1500, plan: "team" },
    { on: "2026-03-20", delta: -800, sub: "sub_B", cust: "c2", change: "contraction", mrr: 1200 },
    { on: "2026-04-02", delta: -500, sub: "sub_C", cust: "c3", change: "churned", mrr: 0 },
    { on: "2026-04-10", delta: 700, sub: "sub_E", cust: "c5", change: "new", mrr: 700, remainder: 5 },
    { on: "2026-04-15", delta: 300, sub: "sub_D", cust: "c4", change: "reactivation", mrr: 300 },
    { on: "2026-04-20", delta: 200, sub: "sub_F", cust: "c1", change: "new", mrr: 200 },
  ];
  let o: TOwner;
  let b: TBusiness;

  beforeAll(async () => {
    o = await newOwner();
    b = await newBusiness(o);
    await ingestChanges(o, b, history);
    await ingestSignals(
      api.db,
      o.ownerId,
      [
        { code: "subscription_past_due", at: "2026-03-10T09:00:00Z" },
        { code: "payment_failed", at: "2026-04-01T09:00:00Z" },
        { code: "subscription_churned", at: "2026-04-02T09:00:00Z" },
        { code: "payment_failed", at: "2026-02-27T09:00:00Z" }, // before the period
        { code: "payout_paid", at: "2026-03-11T09:00:00Z" }, // not counted
      ].map((s, i) => ({ integration_id: b.billing, external_id: `sig_${i}`, code: s.code as never, occurred_at: s.at })),
      { now: NOW },
    );
  });

  it("answers every figure as computed by hand", async () => {
    const body = await metrics(o, b, "from=2026-03-01&to=2026-04-30");
    const data = body.data;
    expect(data).toMatchObject({
      currency: "EUR",
      base_currency: "EUR",
      business_id: b.id,
      from: "2026-03-01",
      to: "2026-04-30",
      mrr_start_minor: 3500,
      mrr_end_minor: 3900,
      arr_minor: 12 * 3900 + 5,
      arpa_minor: 975,
      movements_summary: {
        new_minor: 900,
        expansion_minor: 500,
        reactivation_minor: 300,
        contraction_minor: 800,
        churned_minor: 500,
        net_new_minor: 400,
        consistent: true,
      },
      customers: { active_start: 3, active_end: 4, new: 1, churned: 1 },
      // 1/3; (500 + 800)/3500 = 0.371428…; (1500 + 200 + 1200)/3500 = 0.828571…
      rates: { customer_churn_rate: 0.3333, gross_mrr_churn_rate: 0.3714, net_mrr_retention: 0.8286 },
      signals: { subscription_past_due: 1, subscription_churned: 1, payment_failed: 1 },
      movements_total: 6,
      fx_used: [],
    });
    expect(data.by_month).toEqual([
      {
        month: "2026-03",
        from: "2026-03-01",
        to: "2026-03-31",
        new_minor: 0,
        expansion_minor: 500,
        reactivation_minor: 0,
        contraction_minor: 800,
        churned_minor: 0,
        net_new_minor: -300,
        mrr_end_minor: 3200,
      },
      {
        month: "2026-04",
        from: "2026-04-01",
        to: "2026-04-30",
        new_minor: 900,
        expansion_minor: 0,
        reactivation_minor: 300,
        contraction_minor: 0,
        churned_minor: 500,
        net_new_minor: 700,
        mrr_end_minor: 3900,
      },
    ]);
    expect(data.movements.map((m: any) => [m.occurred_on, m.subscription_id, m.change, m.mrr_delta_minor])).toEqual([
      ["2026-04-20", "sub_F", "new", 200],
      ["2026-04-15", "sub_D", "reactivation", 300],
      ["2026-04-10", "sub_E", "new", 700],
      ["2026-04-02", "sub_C", "churned", -500],
      ["2026-03-20", "sub_B", "contraction", -800],
      ["2026-03-05", "sub_A", "expansion", 500],
    ]);
    expect(data.movements[5]).toEqual({
      event_id: expect.any(String),
      occurred_on: "2026-03-05",
      customer_id: "c1",
      subscription_id: "sub_A",
      change: "expansion",
      mrr_delta_minor: 500,
      mrr_minor: 1500,
      currency: "EUR",
      plan: "team",
    });
    expect(body.coverage).toEqual({ overall: "accurate", billing: "accurate", revenue: "accurate" });
    expect(body.provenance_summary).toEqual({
      events: 6,
      by_source_type: { PAYMENTS_API: 6 },
      min_confidence: 1,
      low_confidence_events: 0,
    });
    expect(body.fx).toMatchObject({ base_currency: "EUR", display_currency: "EUR" });
  });

  it("the default period is the last 30 days; a quiet period keeps MRR and retains it all", async () => {
    // [04-11, 05-10]: S = 04-10 (A 1500, B 1200, E 700: 3400, customers c1, c2, c5); then D reactivates, F is new.
    const data = (await metrics(o, b)).data;
    expect(data).toMatchObject({ from: addDays(TODAY, -29), to: TODAY, mrr_start_minor: 3400, mrr_end_minor: 3900 });
    expect(data.movements_total).toBe(2);
    // c1's second subscription is new MRR, but c1 is not a new customer (its first new was in January).
    expect(data.customers).toEqual({ active_start: 3, active_end: 4, new: 0, churned: 0 });
    expect(data.rates).toEqual({ customer_churn_rate: 0, gross_mrr_churn_rate: 0, net_mrr_retention: 1.0588 });

    const quiet = (await metrics(o, b, "from=2026-05-01&to=2026-05-10")).data;
    expect(quiet).toMatchObject({ mrr_start_minor: 3900, mrr_end_minor: 3900, movements_total: 0 });
    expect(quiet.rates).toEqual({ customer_churn_rate: 0, gross_mrr_churn_rate: 0, net_mrr_retention: 1 });
  });

  it("display_currency converts the components once and recomputes net new (MRR(E) − MRR(S) shown) and ARPA from them", async () => {
    const data = (await metrics(o, b, "from=2026-03-01&to=2026-04-30&display_currency=USD")).data;
    const usd = async (amounts: number[]) =>
      (
        await convertMany(
          api.db,
          amounts.map((a) => ({ amountMinor: BigInt(a), from: "EUR", to: "USD", on: TODAY, kind: "current" as const })),
          { today: TODAY },
        )
      ).map((c) => Number(c.amountMinor));
    const [start, end, arr, n, exp, react, contr, churned] = await usd([3500, 3900, 46_805, 900, 500, 300, 800, 500]);
    expect(data).toMatchObject({
      currency: "USD",
      mrr_start_minor: start,
      mrr_end_minor: end,
      arr_minor: arr,
      arpa_minor: Number(divideHalfEven(BigInt(end!), 4n)),
      movements_summary: {
        new_minor: n,
        expansion_minor: exp,
        reactivation_minor: react,
        contraction_minor: contr,
        churned_minor: churned,
        net_new_minor: end! - start!,
        consistent: true,
        display_rounding_minor: end! - start! - (n! + exp! + react! - contr! - churned!),
      },
    });
    // Listed movements keep their own currency.
    expect(data.movements[0]).toMatchObject({ currency: "EUR", mrr_delta_minor: 200 });
    expect(data.fx_used).toEqual([expect.objectContaining({ from: "EUR", to: "USD", source: "mock" })]);
  });
});

describe("consistent and display_rounding_minor (pinned-wave3 §1.4)", () => {
  it("with a display currency, consistent never holds while the shown net new differs from the shown MRR change", async () => {
    // EUR base, display USD (1.0842): new 5 and expansion 5 EUR cents each show as 5 (5.421 → 5),
    // but MRR(E) = 10 shows as 11 (10.842 → 11). net_new follows MRR(E) − MRR(S) = 11; the shown
    // movements miss it by 1, and display_rounding_minor says so.
    const o = await newOwner();
    const b = await newBusiness(o);
    await ingestChanges(o, b, [
      { on: "2026-04-02", delta: 5, sub: "s1", cust: "c1", change: "new", mrr: 5 },
      { on: "2026-04-03", delta: 5, sub: "s1", cust: "c1", change: "expansion", mrr: 10 },
    ]);
    const shown = (await metrics(o, b, "from=2026-04-01&to=2026-04-30&display_currency=USD")).data;
    expect(shown).toMatchObject({ currency: "USD", mrr_start_minor: 0, mrr_end_minor: 11 });
    expect(shown.movements_summary).toEqual({
      new_minor: 5,
      expansion_minor: 5,
      reactivation_minor: 0,
      contraction_minor: 0,
      churned_minor: 0,
      net_new_minor: 11,
      consistent: true,
      display_rounding_minor: 1,
    });
    const s = shown.movements_summary;
    expect(s.net_new_minor).toBe(shown.mrr_end_minor - shown.mrr_start_minor);
    expect(s.net_new_minor - s.display_rounding_minor).toBe(
      s.new_minor + s.expansion_minor + s.reactivation_minor - s.contraction_minor - s.churned_minor,
    );
    // In the base currency nothing is rounded: display_rounding_minor 0.
    const base = (await metrics(o, b, "from=2026-04-01&to=2026-04-30")).data;
    expect(base.movements_summary).toMatchObject({ new_minor: 5, expansion_minor: 5, net_new_minor: 10, consistent: true });
    expect(base.movements_summary.display_rounding_minor).toBe(0);
    expect(base.mrr_end_minor).toBe(10);
  });

  it("consistent is judged on the base figures: false when the shown base figures do not add up", async () => {
    // One USD subscription, consistent in USD: new 5 + expansion 5 = MRR(E) 10. In the EUR base
    // each sum is converted once (÷ 1.0842): 5 → 4.61 → 5, 10 → 9.22 → 9, so net new 10 ≠ 9:
    // the figures answered do not add up, and consistent says so.
    const o = await newOwner();
    const b = await newBusiness(o);
    await ingestChanges(o, b, [
      { on: "2026-04-02", delta: 5, sub: "u1", cust: "c1", change: "new", mrr: 5, currency: "USD" },
      { on: "2026-04-03", delta: 5, sub: "u1", cust: "c1", change: "expansion", mrr: 10, currency: "USD" },
    ]);
    const data = (await metrics(o, b, "from=2026-04-01&to=2026-04-30")).data;
    expect(data).toMatchObject({ mrr_start_minor: 0, mrr_end_minor: 9 });
    expect(data.movements_summary).toMatchObject({ new_minor: 5, expansion_minor: 5, net_new_minor: 10, consistent: false });
    expect(data.movements_summary.display_rounding_minor).toBe(0);
  });
});

describe("formulas on small cases", () => {
  it("ARPA is MRR(E) / active customers, half even; no customers: null, rates null, consistent", async () => {
    const o = await newOwner();
    const empty = await newBusiness(o);
    const data = (await metrics(o, empty, "from=2026-04-01&to=2026-04-30")).data;
    expect(data).toMatchObject({ mrr_start_minor: 0, mrr_end_minor: 0, arr_minor: 0, arpa_minor: null, movements_total: 0 });
    expect(data.rates).toEqual({ customer_churn_rate: null, gross_mrr_churn_rate: null, net_mrr_retention: null });
    expect(data.movements_summary.consistent).toBe(true);
    expect(data.by_month).toHaveLength(1);

    // 1001 / 2 = 500.5 → 500 (even); 1003 / 2 = 501.5 → 502.
    const odd = await newBusiness(o);
    await ingestChanges(o, odd, [
      { on: "2026-04-02", delta: 500, sub: "s1", cust: "x", change: "new", mrr: 500 },
      { on: "2026-04-03", delta: 501, sub: "s2", cust: "y", change: "new", mrr: 501 },
    ]);
    expect((await metrics(o, odd, "from=2026-04-01&to=2026-04-30")).data.arpa_minor).toBe(500);
    await ingestChanges(o, odd, [{ on: "2026-04-04", delta: 2, sub: "s2", cust: "y", change: "expansion", mrr: 503 }]);
    expect((await metrics(o, odd, "from=2026-04-01&to=2026-04-30")).data.arpa_minor).toBe(502);
  });

  it("without mrr_minor a subscription's MRR is the running sum of its deltas; without change the sign decides", async () => {
    const o = await newOwner();
    const b = await newBusiness(o);
    await ingestChanges(o, b, [
      { on: "2026-03-01", delta: 1000, cust: "only-customer" }, // no subscription_id: keyed by the customer
      { on: "2026-04-05", delta: 250, cust: "only-customer" },
      { on: "2026-04-06", delta: -100, cust: "only-customer" },
    ]);
    const data = (await metrics(o, b, "from=2026-04-01&to=2026-04-30")).data;
    expect(data).toMatchObject({ mrr_start_minor: 1000, mrr_end_minor: 1150 });
    expect(data.movements_summary).toMatchObject({ expansion_minor: 250, contraction_minor: 100, consistent: true });
    expect(data.movements.map((m: any) => [m.change, m.mrr_minor, m.subscription_id])).toEqual([
      ["contraction", null, null],
      ["expansion", null, null],
    ]);
  });

  it("an mrr_minor that is not a JSON integer is no MRR: the running sum counts", async () => {
    const o = await newOwner();
    const b = await newBusiness(o);
    await ingestChanges(o, b, [
      { on: "2026-04-01", delta: 1000, sub: "a", cust: "a", change: "new", mrr: 1000.5 },
      { on: "2026-04-02", delta: 700, sub: "b", cust: "b", change: "new", mrr: "700" as unknown as number },
    ]);
    const data = (await metrics(o, b, "from=2026-04-01&to=2026-04-30")).data;
    expect(data).toMatchObject({ mrr_end_minor: 1700, movements_summary: { new_minor: 1700, consistent: true } });
    expect(data.movements.map((m: any) => m.mrr_minor)).toEqual([null, null]);
  });

  it("an mrr_minor that disagrees with the deltas wins for MRR, and consistent says so", async () => {
    const o = await newOwner();
    const b = await newBusiness(o);
    await ingestChanges(o, b, [
      { on: "2026-03-01", delta: 1000, sub: "s", cust: "c", change: "new", mrr: 1000 },
      { on: "2026-04-10", delta: 100, sub: "s", cust: "c", change: "expansion", mrr: 1500 },
    ]);
    const data = (await metrics(o, b, "from=2026-04-01&to=2026-04-30")).data;
    expect(data).toMatchObject({ mrr_start_minor: 1000, mrr_end_minor: 1500 });
    expect(data.movements_summary).toMatchObject({ net_new_minor: 100, consistent: false });
  });

  /**
   * Two businesses with the same history but for the length of some references: their metrics
   * agree in every figure but the business id and the references themselves. Returns both.
   */
  async function sameFiguresForBoth(o: TOwner, short: TBusiness, long: TBusiness, query: string) {
    const [a, b] = [(await metrics(o, short, query)).data, (await metrics(o, long, query)).data];
    const figures = (data: any) => ({
      ...data,
      business_id: undefined,
      movements: data.movements.map((m: any) => m.mrr_delta_minor),
    });
    expect(figures(b)).toEqual(figures(a));
    return [a, b];
  }

  it("references too long for the SaaS index (over 1,000 bytes) count as any other", async () => {
    // financial_events_saas_levels_idx leaves such rows out (a btree entry holds 2,704 bytes):
    // the statement reads them through financial_events_saas_long_refs_idx instead.
    const o = await newOwner();
    const [short, long] = [await newBusiness(o), await newBusiness(o)];
    const history = (ref: (name: string) => string): TChangeItem[] => [
      { on: "2026-02-10", delta: 1000, sub: ref("s1"), cust: ref("c1"), change: "new", mrr: 1000 },
      { on: "2026-02-12", delta: 400, cust: ref("c2"), change: "new" },
      { on: "2026-03-05", delta: 500, sub: ref("s1"), cust: ref("c1"), change: "expansion", mrr: 1500 },
      { on: "2026-04-02", delta: -400, cust: ref("c2"), change: "churn" },
      { on: "2026-04-10", delta: 700, sub: ref("s3"), cust: ref("c1"), change: "new", mrr: 700, remainder: 3 },
      { on: "2026-04-11", delta: 300, sub: ref("s4"), change: "new", mrr: 300 },
    ];
    await ingestChanges(
      o,
      short,
      history((name) => name),
    );
    // Mixed: some keys long (1,500 and 3,000 bytes), one short.
    await ingestChanges(
      o,
      long,
      history((name) =>
        name === "s4" ? name : `${name}-${(name.startsWith("s") ? "é" : "x").repeat(name.startsWith("s") ? 750 : 3000)}`,
      ),
    );
    const [a, b] = await sameFiguresForBoth(o, short, long, "from=2026-03-01&to=2026-04-30");
    expect(a).toMatchObject({
      mrr_start_minor: 1400,
      mrr_end_minor: 2500,
      arr_minor: 12 * 2500 + 3,
      customers: { active_start: 2, active_end: 2, new: 1, churned: 1 },
    });
    expect(b.movements[0].customer_id).toBeNull();
    expect(b.movements[1].subscription_id).toHaveLength(3 + 750);
  });

  it("a subscription whose events lie on both sides of the 1,000-byte limit is one key", async () => {
    // Its second event names a customer of 3,000 bytes: that row is read through the other
    // index, the others through financial_events_saas_levels_idx. Its level is the latest
    // event's mrr_minor (1,300), never one per index (800 + 1,500).
    const o = await newOwner();
    const [short, long] = [await newBusiness(o), await newBusiness(o)];
    const history = (other: string): TChangeItem[] => [
      { on: "2026-02-10", delta: 1000, sub: "s5", cust: "c5", change: "new", mrr: 1000 },
      { on: "2026-03-05", delta: 500, sub: "s5", cust: other, change: "expansion", mrr: 1500 },
      { on: "2026-04-10", delta: -200, sub: "s5", cust: "c5", change: "contraction", mrr: 1300 },
    ];
    await ingestChanges(o, short, history("c5b"));
    await ingestChanges(o, long, history(`c5b-${"x".repeat(3000)}`));
    const [a] = await sameFiguresForBoth(o, short, long, "from=2026-03-01&to=2026-04-30");
    expect(a).toMatchObject({ mrr_start_minor: 1000, mrr_end_minor: 1300, arr_minor: 12 * 1300 });
    expect(a.movements_summary).toMatchObject({ expansion_minor: 500, contraction_minor: 200, consistent: true });
  });

  it("per-currency sums are each converted once (three USD subscriptions of 5 cents: 15 → 14 EUR cents, not 3 × 5)", async () => {
    const o = await newOwner();
    const b = await newBusiness(o);
    await ingestChanges(o, b, [
      ...["a", "b", "c"].map((s) => ({ on: "2026-04-02", delta: 5, sub: s, cust: s, change: "new", mrr: 5, currency: "USD" })),
      { on: "2026-04-03", delta: 1000, sub: "e", cust: "e", change: "new", mrr: 1000, remainder: 7 },
    ]);
    const [fifteen, arrUsd] = await convertMany(
      api.db,
      [15n, 180n].map((amountMinor) => ({ amountMinor, from: "USD", to: "EUR", on: TODAY, kind: "current" as const })),
      { today: TODAY },
    );
    expect(fifteen!.amountMinor).toBe(14n);
    const data = (await metrics(o, b, "from=2026-04-01&to=2026-04-30")).data;
    expect(data).toMatchObject({
      mrr_end_minor: 1014,
      arr_minor: Number(arrUsd!.amountMinor) + 12_007,
      arpa_minor: Number(divideHalfEven(1014n, 4n)),
      movements_summary: { new_minor: 1014, net_new_minor: 1014, consistent: true },
      customers: { active_start: 0, active_end: 4, new: 4, churned: 0 },
    });
    expect(data.fx_used).toEqual([expect.objectContaining({ from: "USD", to: "EUR", source: "mock" })]);
    expect(data.movements.filter((m: any) => m.currency === "USD")).toHaveLength(3);
  });
});

// --- the property ----------------------------------------------------------------------------

type TStep = { on: string; delta: number; change: string; mrr: number };
/** `cust` is who the reference counts as the customer; `sendCust` whether the events carry it (a subscription without one is its own customer). */
type TKey = { sub?: string; cust: string; sendCust: boolean; steps: TStep[]; sendMrr: boolean[]; sendChange: boolean[] };

const FIRST_DAY = "2026-01-01";
const SPAN = daysBetween(FIRST_DAY, TODAY);

/** A key's history: increasing days; from 0 MRR new (first) or reactivation; else expansion, contraction or churn. */
const arbKey = (index: number) =>
  fc
    .record({
      withSub: fc.boolean(),
      customer: fc.integer({ min: -1, max: 2 }),
      days: fc.uniqueArray(fc.integer({ min: 0, max: SPAN }), { minLength: 1, maxLength: 6 }),
      moves: fc.array(fc.record({ pick: fc.integer({ min: 0, max: 2 }), size: fc.integer({ min: 1, max: 5000 }) }), {
        minLength: 6,
        maxLength: 6,
      }),
      sendMrr: fc.array(fc.boolean(), { minLength: 6, maxLength: 6 }),
      sendChange: fc.array(fc.boolean(), { minLength: 6, maxLength: 6 }),
      churnWord: fc.constantFrom("churned", "churn"),
    })
    .map((r): TKey => {
      const days = [...r.days].sort((a, b) => a - b).map((d) => addDays(FIRST_DAY, d));
      let mrr = 0;
      let started = false;
      const steps = days.map((on, i): TStep => {
        const move = r.moves[i]!;
        let delta: number;
        let change: string;
        if (mrr === 0) {
          delta = move.size;
          change = started ? "reactivation" : "new";
          started = true;
        } else if (move.pick === 0) {
          delta = move.size;
          change = "expansion";
        } else if (move.pick === 1 && mrr > 1) {
          delta = -(1 + (move.size % (mrr - 1)));
          change = "contraction";
        } else {
          delta = -mrr;
          change = r.churnWord;
        }
        mrr += delta;
        return { on, delta, change, mrr };
      });
      // A key without a subscription id is keyed by its customer: give it a customer of its own.
      return r.withSub
        ? r.customer < 0
          ? { sub: `sub_${index}`, cust: `sub_${index}`, sendCust: false, steps, sendMrr: r.sendMrr, sendChange: r.sendChange }
          : {
              sub: `sub_${index}`,
              cust: `cust_${r.customer}`,
              sendCust: true,
              steps,
              sendMrr: r.sendMrr,
              sendChange: r.sendChange,
            }
        : { cust: `solo_${index}`, sendCust: true, steps, sendMrr: r.sendMrr, sendChange: r.sendChange };
    });

const arbHistory = fc.integer({ min: 1, max: 6 }).chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => arbKey(i))));
const arbPeriod = fc
  .tuple(fc.integer({ min: 0, max: SPAN }), fc.integer({ min: 0, max: SPAN }))
  .map(([a, b]) => ({ from: addDays(FIRST_DAY, Math.min(a, b)), to: addDays(FIRST_DAY, Math.max(a, b)) }));

type TKind = "new" | "expansion" | "reactivation" | "contraction" | "churned";

/** What §2.7 says, computed directly from the history (one currency, no conversion). */
function reference(keys: TKey[], from: string, to: string) {
  const start = addDays(from, -1);
  const sent = keys.flatMap((k) =>
    k.steps.map((s, i) => ({
      key: k,
      on: s.on,
      delta: s.delta,
      mrr: k.sendMrr[i] ? s.mrr : undefined,
      change: k.sendChange[i] ? s.change : undefined,
    })),
  );
  const level = (k: TKey, d: string) => {
    const upTo = sent.filter((e) => e.key === k && e.on <= d);
    const last = upTo.at(-1);
    if (!last) return 0;
    return last.mrr ?? upTo.reduce((sum, e) => sum + e.delta, 0);
  };
  const mrr = (d: string) => keys.reduce((sum, k) => sum + Math.max(0, level(k, d)), 0);
  const active = (d: string) => new Set(keys.filter((k) => level(k, d) > 0).map((k) => k.cust));
  const kindOf = (e: (typeof sent)[number]) =>
    e.change === "churn" ? "churned" : (e.change ?? (e.delta >= 0 ? "expansion" : "contraction"));
  const moves = (lo: string, hi: string) => {
    const sums = { new: 0, expansion: 0, reactivation: 0, contraction: 0, churned: 0 } as Record<TKind, number>;
    for (const e of sent) if (e.on >= lo && e.on <= hi) sums[kindOf(e) as TKind] += e.delta;
    const m = { ...sums, contraction: Math.abs(sums.contraction), churned: Math.abs(sums.churned) };
    return {
      new_minor: m.new,
      expansion_minor: m.expansion,
      reactivation_minor: m.reactivation,
      contraction_minor: m.contraction,
      churned_minor: m.churned,
      net_new_minor: m.new + m.expansion + m.reactivation - m.contraction - m.churned,
    };
  };
  const atStart = active(start);
  const atEnd = active(to);
  const firstNew = new Map<string, string>();
  for (const e of [...sent].sort((a, b) => a.on.localeCompare(b.on)))
    if (kindOf(e) === "new" && !firstNew.has(e.key.cust)) firstNew.set(e.key.cust, e.on);
  return {
    mrrStart: mrr(start),
    mrrEnd: mrr(to),
    moves: moves(from, to),
    customers: {
      active_start: atStart.size,
      active_end: atEnd.size,
      new: [...firstNew.values()].filter((d) => d >= from && d <= to).length,
      churned: [...atStart].filter((c) => !atEnd.has(c)).length,
    },
    retained: keys.filter((k) => atStart.has(k.cust)).reduce((sum, k) => sum + Math.max(0, level(k, to)), 0),
    total: sent.filter((e) => e.on >= from && e.on <= to).length,
    monthEnd: (month: { from: string; to: string }) => ({ moves: moves(month.from, month.to), mrrEnd: mrr(month.to) }),
  };
}

describe("property: movements sum to the MRR change", () => {
  it("for random subscription histories, net_new = MRR(E) − MRR(S) (consistent) and every figure matches §2.7", async () => {
    const o = await newOwner();
    await fc.assert(
      fc.asyncProperty(arbHistory, arbPeriod, async (keys, period) => {
        const b = await newBusiness(o);
        await ingestChanges(
          o,
          b,
          keys.flatMap((k) =>
            k.steps.map((s, i) => ({
              on: s.on,
              delta: s.delta,
              ...(k.sub ? { sub: k.sub } : {}),
              ...(k.sendCust ? { cust: k.cust } : {}),
              ...(k.sendMrr[i] ? { mrr: s.mrr } : {}),
              ...(k.sendChange[i] ? { change: s.change } : {}),
            })),
          ),
        );
        const data = (await metrics(o, b, `from=${period.from}&to=${period.to}`)).data;
        const want = reference(keys, period.from, period.to);
        expect(data.movements_summary).toEqual({ ...want.moves, consistent: true, display_rounding_minor: 0 });
        expect(data.movements_summary.net_new_minor).toBe(data.mrr_end_minor - data.mrr_start_minor);
        expect(data.mrr_start_minor).toBe(want.mrrStart);
        expect(data.mrr_end_minor).toBe(want.mrrEnd);
        expect(data.customers).toEqual(want.customers);
        expect(data.movements_total).toBe(want.total);
        expect(data.rates.net_mrr_retention).toBe(
          want.mrrStart === 0 ? null : Number(divideHalfEven(BigInt(want.retained) * 10_000n, BigInt(want.mrrStart))) / 10_000,
        );
        // The months add up to the period, and each ends on its own MRR.
        let previous = data.mrr_start_minor;
        for (const month of data.by_month) {
          const expected = want.monthEnd(month);
          expect(month).toMatchObject({ ...expected.moves, mrr_end_minor: expected.mrrEnd });
          expect(month.net_new_minor).toBe(month.mrr_end_minor - previous);
          previous = month.mrr_end_minor;
        }
        expect(data.by_month.at(-1).to).toBe(period.to);
      }),
      { numRuns: 15 },
    );
  });
});

// --- access ----------------------------------------------------------------------------------

describe("access", () => {
  it("an agent whose finances:observe covers the business → 200; elsewhere or another scope → 403 audited; 404; 400", async () => {
    const alice = await newOwner();
    const shop = await newBusiness(alice);
    const other = await newBusiness(alice);
    const bob = await newOwner();
    const bobs = await newBusiness(bob);
    const path = (id: string, query = "") => `/v1/businesses/${id}/saas-metrics${query}`;

    const covering = await seedAgent(api, { grants: [businessGrant(shop.id, { scope: "finances:observe" })] }, alice.token);
    const ok = await api.call("GET", path(shop.id), { token: covering.token });
    expect(ok.status, ok.text).toBe(200);
    const everywhere = await seedAgent(
      api,
      { grants: [{ scope: "finances:observe", resource: "*", level: "recommend" }] },
      alice.token,
    );
    expect((await api.call("GET", path(other.id), { token: everywhere.token })).status).toBe(200);

    // The owner's other business: a grant of the scope, but not covering it.
    expectApiError(await api.call("GET", path(other.id), { token: covering.token }), 403, "scope_denied", {
      details: { required_scope: "finances:observe", resource: `business:${other.id}` },
    });
    // No grant of finances:observe at all (an ads grant on the business).
    const adsOnly = await seedAgent(api, { grants: [businessGrant(shop.id)] }, alice.token);
    expectApiError(await api.call("GET", path(shop.id), { token: adsOnly.token }), 403, "scope_denied", {
      details: { required_scope: "finances:observe" },
    });
    const denials = await api.db.auditEntry.findMany({
      where: { ownerId: alice.ownerId, action: "access.denied" },
      select: { actorId: true, details: true },
    });
    expect(denials).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          actorId: covering.id,
          details: expect.objectContaining({ code: "scope_denied", resource: `business:${other.id}` }),
        }),
        expect.objectContaining({ actorId: adsOnly.id, details: expect.objectContaining({ code: "scope_denied" }) }),
      ]),
    );

    // Another owner's business, or an unknown one: 404, for the owner and the agent alike.
    expectApiError(await api.call("GET", path(bobs.id), { token: alice.token }), 404, "not_found");
    expectApiError(await api.call("GET", path(bobs.id), { token: everywhere.token }), 404, "not_found");
    expectApiError(await api.call("GET", path(randomUUID()), { token: covering.token }), 404, "not_found");
    // Validation: the id, the period, the display currency.
    expectApiError(await api.call("GET", path("not-a-uuid"), { token: alice.token }), 400, "validation_error", { issue: "id" });
    expectApiError(
      await api.call("GET", path(shop.id, "?from=2026-05-01&to=2026-04-01"), { token: alice.token }),
      400,
      "validation_error",
      { issue: "from" },
    );
    // The period is checked before the business is looked up (they are read together).
    expectApiError(
      await api.call("GET", path(bobs.id, "?from=2026-05-01&to=2026-04-01"), { token: alice.token }),
      400,
      "validation_error",
      { issue: "from" },
    );
    expectApiError(
      await api.call("GET", path(shop.id, "?display_currency=usd"), { token: alice.token }),
      400,
      "validation_error",
      {
        issue: "display_currency",
      },
    );
    expectApiError(await api.call("GET", path(shop.id), { token: null }), 401, "unauthenticated");
  });
});
