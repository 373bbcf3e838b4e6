// The currency module on a real database (PGlite and PostgreSQL): storage and refresh of ECB
// rates (from a local HTTP server serving the stored sample), cross rates, the stale flag,
// the two 422s, GET /v1/fx/rates with its access rule, and the base-currency change.
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { todayUtc, utcDayOf, utcMidnightOf } from "../../lib/days";
import { applyTestEnv, createTestApi, type TTestApi } from "../../test/helpers/api";
import { seedAgent, seedOwner, staticOwner } from "../../test/helpers/seed";
import { expectApiError } from "../../test/helpers/api-error";
import { convertAmount, convertMany } from "./fx-service";
import { toDisplayCurrency } from "./fx-summary";
import { crossRate } from "./money";
import { createEcbProvider } from "./providers/ecb";
import { mockProvider } from "./providers/mock";
import type { TFxProvider } from "./providers/types";
import { refreshRates, storeRateSet } from "./rate-store";
import { runFxRefresh } from "./refresh-job";

const fixture = fs.readFileSync(new URL("./providers/__fixtures__/eurofxref-daily.xml", import.meta.url), "utf8");

let api: TTestApi;
let server: http.Server;
let feedUrl: string;
let feedHits = 0;
let ecb: TFxProvider;

beforeAll(async () => {
  server = http.createServer((_req, res) => {
    feedHits++;
    res.writeHead(200, { "content-type": "text/xml" }).end(fixture);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  feedUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/eurofxref-daily.xml`;
  ecb = createEcbProvider({ url: feedUrl, timeoutMs: 2_000 });
  api = await createTestApi({ env: { FX_SOURCE: "mock" } });
});
afterAll(async () => {
  await api?.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  applyTestEnv({ FX_SOURCE: undefined, FX_ECB_URL: undefined });
});

const ecbOn = (today: string) => ({ provider: ecb, today });

describe("ECB rates: storage and refresh", () => {
  it("refuses every conversion with fx_unavailable before the first refresh, writing nothing", async () => {
    await expect(
      convertAmount(
        api.db,
        { amountMinor: 100n, from: "USD", to: "EUR", on: "2026-11-20", kind: "snapshot" },
        ecbOn("2026-11-22"),
      ),
    ).rejects.toMatchObject({ code: "fx_unavailable", status: 422 });
    expect(await api.db.fxRate.count()).toBe(0);
  });

  it("stores a day's rates once: a repeat writes nothing, a corrected rate is updated", async () => {
    const first = await refreshRates(api.db, ecb, "2026-11-22");
    expect(first).toEqual({ source: "ecb", days: ["2026-11-20"], written: 29 });
    const again = await refreshRates(api.db, ecb, "2026-11-22");
    expect(again.written).toBe(0);
    expect(await api.db.fxRate.count({ where: { source: "ecb" } })).toBe(29);
    const usd = await api.db.fxRate.findFirstOrThrow({ where: { source: "ecb", quote: "USD" } });
    expect(usd.rate.toFixed(8)).toBe("1.15870000");
    expect(usd.base).toBe("EUR");
    expect(utcDayOf(usd.day)).toBe("2026-11-20");

    const corrected = new Map([["USD", "1.15880000"]]);
    expect(await storeRateSet(api.db, "ecb", { base: "EUR", day: "2026-11-20", rates: corrected })).toBe(1);
    expect((await api.db.fxRate.findFirstOrThrow({ where: { source: "ecb", quote: "USD" } })).rate.toFixed(8)).toBe("1.15880000");
    await storeRateSet(api.db, "ecb", { base: "EUR", day: "2026-11-20", rates: new Map([["USD", "1.15870000"]]) });
  });

  it("refreshes concurrently without conflict (several instances)", async () => {
    const results = await Promise.all([1, 2, 3].map(() => refreshRates(api.db, ecb, "2026-11-22")));
    expect(results.map((r) => r.written)).toEqual([0, 0, 0]);
    expect(await api.db.fxRate.count({ where: { source: "ecb" } })).toBe(29);
  });

  it("the scheduled job fetches only while today's rates are missing, and does nothing on mock", async () => {
    const before = feedHits;
    expect(await runFxRefresh(api.db, new Date("2026-11-20T17:00:00Z"), ecb)).toEqual({ skipped: "already stored" });
    expect(feedHits).toBe(before);
    expect(await runFxRefresh(api.db, new Date("2026-11-21T17:00:00Z"), ecb)).toMatchObject({ days: ["2026-11-20"], written: 0 });
    expect(feedHits).toBe(before + 1);
    expect(await runFxRefresh(api.db, new Date(), mockProvider)).toEqual({ skipped: "fixed source" });
  });
});

describe("conversion", () => {
  it("converts through EUR cross rates, rounding the rate once and the amount once", async () => {
    const result = await convertAmount(
      api.db,
      { amountMinor: 10_000n, from: "USD", to: "GBP", on: "2026-11-22", kind: "snapshot" },
      ecbOn("2026-11-22"),
    );
    const rate = crossRate("1.1587", "0.88143"); // 0.88143 / 1.1587
    expect(rate).toBe("0.76070596");
    expect(result).toEqual({
      amountMinor: 7_607n, // 10000 × 0.76070596 = 7607.0596
      fx: { rate, as_of: "2026-11-20", source: "ecb", kind: "snapshot", stale: false },
    });
    // From and to EUR use the published rate itself, or its exact inverse.
    const [toEur, fromEur, jpy] = await convertMany(
      api.db,
      [
        { amountMinor: 11_587n, from: "USD", to: "EUR", on: "2026-11-21", kind: "current" },
        { amountMinor: 10_000n, from: "EUR", to: "USD", on: "2026-11-21", kind: "current" },
        { amountMinor: 10_000n, from: "EUR", to: "JPY", on: "2026-11-21", kind: "current" },
      ],
      ecbOn("2026-11-22"),
    );
    expect(toEur).toMatchObject({ amountMinor: 10_000n, fx: { rate: "0.86303616", kind: "current" } });
    expect(fromEur).toMatchObject({ amountMinor: 11_587n, fx: { rate: "1.15870000" } });
    expect(jpy!.amountMinor).toBe(18_132n); // 100.00 EUR → 18132 yen (0 digits)
  });

  it("is the identity for the same currency, whatever the source covers", async () => {
    const result = await convertAmount(
      api.db,
      { amountMinor: 4_321n, from: "ARS", to: "ARS", on: "2026-11-22", kind: "current" },
      ecbOn("2026-11-22"),
    );
    expect(result).toEqual({
      amountMinor: 4_321n,
      fx: { rate: "1.00000000", as_of: "2026-11-22", source: "identity", kind: "current", stale: false },
    });
  });

  it("flags a rate older than 5 days as stale, and uses the latest rate for a future day", async () => {
    const on = (day: string) =>
      convertAmount(api.db, { amountMinor: 100n, from: "EUR", to: "USD", on: day, kind: "current" }, ecbOn("2026-12-31"));
    expect((await on("2026-11-25")).fx).toMatchObject({ as_of: "2026-11-20", stale: false });
    expect((await on("2026-11-26")).fx).toMatchObject({ as_of: "2026-11-20", stale: true });
    const future = await convertAmount(
      api.db,
      { amountMinor: 100n, from: "EUR", to: "USD", on: "2027-06-01", kind: "current" },
      ecbOn("2026-11-21"),
    );
    expect(future.fx).toMatchObject({ as_of: "2026-11-20", stale: false });
  });

  it("answers currency_unsupported for what the source does not cover, fx_unavailable for no rate on or before the day", async () => {
    const convert = (from: string, to: string, on = "2026-11-22") =>
      convertAmount(api.db, { amountMinor: 100n, from, to, on, kind: "snapshot" }, ecbOn("2026-11-22"));
    await expect(convert("ARS", "EUR")).rejects.toMatchObject({ code: "currency_unsupported", details: { currency: "ARS" } });
    await expect(convert("USD", "XYZ")).rejects.toMatchObject({ code: "currency_unsupported" });
    await expect(convert("USD", "EUR", "2026-11-19")).rejects.toMatchObject({ code: "fx_unavailable" });
    // BGN is an ECB currency that this sample does not carry: covered, but no rate.
    await expect(convert("BGN", "EUR")).rejects.toMatchObject({ code: "fx_unavailable", details: { currency: "BGN" } });
    // In a batch, unsupported wins, and nothing is converted.
    await expect(
      convertMany(
        api.db,
        [
          { amountMinor: 1n, from: "USD", to: "EUR", on: "2026-11-19", kind: "snapshot" },
          { amountMinor: 1n, from: "ARS", to: "EUR", on: "2026-11-22", kind: "snapshot" },
        ],
        ecbOn("2026-11-22"),
      ),
    ).rejects.toMatchObject({ code: "currency_unsupported" });
  });

  it("resolves the mock table directly for any day, never stale, and refuses what it lacks", async () => {
    const result = await convertAmount(
      api.db,
      { amountMinor: 10_000n, from: "EUR", to: "USD", on: "2019-03-04", kind: "snapshot" },
      { provider: mockProvider },
    );
    expect(result).toEqual({
      amountMinor: 10_842n,
      fx: { rate: "1.08420000", as_of: "2019-03-04", source: "mock", kind: "snapshot", stale: false },
    });
    await expect(
      convertAmount(
        api.db,
        { amountMinor: 1n, from: "ZAR", to: "EUR", on: "2026-11-22", kind: "current" },
        { provider: mockProvider },
      ),
    ).rejects.toMatchObject({ code: "currency_unsupported" });
  });

  it("shows base amounts in a display currency at the current rate", async () => {
    const shown = await toDisplayCurrency(
      api.db,
      { baseCurrency: "EUR", displayCurrency: "USD", amounts: [10_000n, -5n] },
      { provider: mockProvider, today: "2026-11-22" },
    );
    expect(shown).toEqual({
      amounts: [10_842n, -5n],
      fx: { rate: "1.08420000", as_of: "2026-11-22", source: "mock", kind: "current", stale: false },
    });
  });
});

describe("GET /v1/fx/rates", () => {
  it("answers the owner every covered rate against the owner's base currency (mock by default)", async () => {
    applyTestEnv({ FX_SOURCE: "mock" });
    const response = await api.call("GET", "/v1/fx/rates?date=2026-11-20");
    expect(response.status).toBe(200);
    const data = response.body.data;
    expect(data).toMatchObject({ base: "USD", date: "2026-11-20", source: "mock" });
    expect(data.rates.map((r: { quote: string }) => r.quote)).toEqual([
      "AUD",
      "CAD",
      "CHF",
      "CZK",
      "DKK",
      "EUR",
      "GBP",
      "JPY",
      "NOK",
      "NZD",
      "PLN",
      "SEK",
    ]);
    expect(data.rates.find((r: { quote: string }) => r.quote === "EUR")).toEqual({
      quote: "EUR",
      rate: "0.92233905",
      as_of: "2026-11-20",
      stale: false,
    });
    for (const rate of data.rates) expect(rate.rate).toMatch(/^\d+\.\d{8}$/);
  });

  it("takes base and quotes, refuses unsupported ones and malformed ones", async () => {
    const picked = await api.call("GET", "/v1/fx/rates?base=EUR&quotes=USD,JPY,EUR&date=2026-11-20");
    expect(picked.status).toBe(200);
    expect(picked.body.data.rates).toEqual([
      { quote: "EUR", rate: "1.00000000", as_of: "2026-11-20", stale: false },
      { quote: "JPY", rate: "162.45000000", as_of: "2026-11-20", stale: false },
      { quote: "USD", rate: "1.08420000", as_of: "2026-11-20", stale: false },
    ]);
    const unsupported = await api.call("GET", "/v1/fx/rates?quotes=USD,ZAR");
    expectApiError(unsupported, 422, "currency_unsupported");
    const badBase = await api.call("GET", "/v1/fx/rates?base=ARS");
    expectApiError(badBase, 422, "currency_unsupported");
    for (const query of ["quotes=usd", "quotes=USD,,GBP", "date=2026-02-30", "base=EURO"]) {
      const response = await api.call("GET", `/v1/fx/rates?${query}`);
      expectApiError(response, 400, "validation_error", { what: query });
    }
  });

  it("reads stored ECB rates when FX_SOURCE=ecb, with their publication day", async () => {
    applyTestEnv({ FX_SOURCE: "ecb", FX_ECB_URL: feedUrl });
    try {
      const response = await api.call("GET", "/v1/fx/rates?base=EUR&date=2026-11-23");
      expect(response.status).toBe(200);
      expect(response.body.data.source).toBe("ecb");
      expect(response.body.data.rates).toHaveLength(29); // BGN: covered, no rate stored, left out
      expect(response.body.data.rates.find((r: { quote: string }) => r.quote === "USD")).toEqual({
        quote: "USD",
        rate: "1.15870000",
        as_of: "2026-11-20",
        stale: false,
      });
      const before = await api.call("GET", "/v1/fx/rates?base=EUR&date=2026-11-19");
      expectApiError(before, 422, "fx_unavailable");
      const askedBgn = await api.call("GET", "/v1/fx/rates?base=EUR&quotes=BGN&date=2026-11-23");
      expectApiError(askedBgn, 422, "fx_unavailable");
    } finally {
      applyTestEnv({ FX_SOURCE: "mock", FX_ECB_URL: undefined });
    }
  });

  it("answers agents with finances:observe, and 403 scope_denied to others", async () => {
    const observer = await seedAgent(api, {
      name: "Observer",
      grants: [{ scope: "finances:observe", resource: "*", level: "execute" }],
    });
    const other = await seedAgent(api, { name: "Ads only", grants: [{ scope: "ads", resource: "*", level: "execute" }] });
    const allowed = await api.call("GET", "/v1/fx/rates?quotes=EUR", { token: observer.token });
    expect(allowed.status).toBe(200);
    expect(allowed.body.data).toMatchObject({ base: "USD", rates: [{ quote: "EUR", rate: "0.92233905" }] });
    const denied = await api.call("GET", "/v1/fx/rates", { token: other.token });
    expectApiError(denied, 403, "scope_denied");
    const anonymous = await api.call("GET", "/v1/fx/rates", { token: null });
    expect(anonymous.status).toBe(401);
  });
});

describe("changing the base currency (PATCH /v1/me)", () => {
  let ownerId: string;
  let otherEventId: string;

  const event = (data: { currency: string; amountMinor: bigint; state?: string; occurredOn: string; ownerId?: string }) =>
    api.db.financialEvent.create({
      data: {
        ownerId: data.ownerId ?? ownerId,
        personal: true,
        type: data.state === "planned" ? "planned_expense" : "expense",
        state: data.state ?? "actual",
        amountMinor: data.amountMinor,
        currency: data.currency,
        occurredOn: utcMidnightOf(data.occurredOn),
        sourceType: "MANUAL",
        baseCurrency: "USD",
        baseAmountMinor: 0n,
        fxRate: "1",
        fxAsOf: utcMidnightOf(data.occurredOn),
        fxSource: "mock",
      },
    });

  beforeAll(async () => {
    applyTestEnv({ FX_SOURCE: "mock" });
    ownerId = (await staticOwner(api)).ownerId;
    const other = await seedOwner(api, "other-fx@example.test");
    otherEventId = (await event({ ownerId: other.ownerId, currency: "USD", amountMinor: 500n, occurredOn: "2026-01-05" })).id;
  });

  it("re-expresses actual events at their own day's rate and planned ones at today's, from the original amounts", async () => {
    const usd = await event({ currency: "USD", amountMinor: 10_000n, occurredOn: "2025-03-14" });
    const gbp = await event({ currency: "GBP", amountMinor: -2_500n, occurredOn: "2026-10-01" });
    const eur = await event({ currency: "EUR", amountMinor: 777n, occurredOn: "2026-11-01" });
    const planned = await event({ currency: "JPY", amountMinor: 50_000n, state: "planned", occurredOn: "2027-02-01" });

    const response = await api.call("PATCH", "/v1/me", { body: { base_currency: "EUR" } });
    expect(response.status).toBe(200);
    expect(response.body.data.base_currency).toBe("EUR");

    const row = (id: string) => api.db.financialEvent.findUniqueOrThrow({ where: { id } });
    const day = (d: Date | null) => (d ? utcDayOf(d) : undefined);
    const u = await row(usd.id);
    expect([u.baseAmountMinor, u.baseCurrency, u.fxRate?.toFixed(8), day(u.fxAsOf), u.fxSource]).toEqual([
      9_223n, // 10000 × 0.92233905 = 9223.39
      "EUR",
      "0.92233905",
      "2025-03-14",
      "mock",
    ]);
    const g = await row(gbp.id);
    expect([g.baseAmountMinor, g.fxRate?.toFixed(8), day(g.fxAsOf)]).toEqual([-2_930n, "1.17219552", "2026-10-01"]); // −2930.49
    const e = await row(eur.id);
    expect([e.baseAmountMinor, e.fxRate?.toFixed(8), e.fxSource]).toEqual([777n, "1.00000000", "identity"]);
    const p = await row(planned.id);
    const today = todayUtc();
    expect([p.baseAmountMinor, day(p.fxAsOf), p.amountMinor]).toEqual([30_779n, today, 50_000n]); // 50000 / 162.45 × 100
    // Another owner's events are not touched.
    expect((await row(otherEventId)).baseAmountMinor).toBe(0n);
    // The audit entry records the change.
    const audit = await api.db.auditEntry.findFirstOrThrow({
      where: { ownerId, action: "me.updated" },
      orderBy: { createdAt: "desc" },
    });
    expect(audit.details).toMatchObject({ base_currency_change: { from: "USD", to: "EUR", events: 4 } });

    // Back to USD: from the originals again, not chained through EUR.
    await api.call("PATCH", "/v1/me", { body: { base_currency: "USD" } });
    expect((await row(usd.id)).baseAmountMinor).toBe(10_000n);
    expect((await row(gbp.id)).baseAmountMinor).toBe(-3_177n); // −2500 × 1.27089439 = −3177.22
  });

  it("refuses a base currency the source cannot convert to, changing nothing", async () => {
    const before = await api.db.financialEvent.findMany({ where: { ownerId }, orderBy: { id: "asc" } });
    const response = await api.call("PATCH", "/v1/me", { body: { base_currency: "ZAR", name: "Changed" } });
    expectApiError(response, 422, "currency_unsupported");
    const me = await api.call("GET", "/v1/me");
    expect(me.body.data).toMatchObject({ base_currency: "USD" });
    expect(me.body.data.name).not.toBe("Changed");
    expect(await api.db.financialEvent.findMany({ where: { ownerId }, orderBy: { id: "asc" } })).toEqual(before);
  });

  it("refuses with fx_unavailable when the source has no rate for an event's day, changing nothing", async () => {
    applyTestEnv({ FX_SOURCE: "ecb", FX_ECB_URL: feedUrl });
    try {
      const response = await api.call("PATCH", "/v1/me", { body: { base_currency: "EUR" } });
      expectApiError(response, 422, "fx_unavailable"); // the 2025 event predates every stored rate
      expect((await api.call("GET", "/v1/me")).body.data.base_currency).toBe("USD");
    } finally {
      applyTestEnv({ FX_SOURCE: "mock", FX_ECB_URL: undefined });
    }
  });
});
