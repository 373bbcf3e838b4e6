// PATCH /v1/me and the base currency: the same base changes nothing stored; a new one is
// re-expressed (the full behaviour is tested in server/fx/fx.int.test.ts).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyTestEnv, createTestApi, type TTestApi } from "../../test/helpers/api";
import { staticOwner } from "../../test/helpers/seed";

let api: TTestApi;
let ownerId: string;
beforeAll(async () => {
  api = await createTestApi({ env: { FX_SOURCE: "mock" } });
  ownerId = (await staticOwner(api)).ownerId;
});
afterAll(async () => {
  await api?.close();
  applyTestEnv({ FX_SOURCE: undefined });
});

describe("PATCH /v1/me base_currency", () => {
  it("confirms an unchanged base currency without touching stored base amounts", async () => {
    const event = await api.db.financialEvent.create({
      data: {
        ownerId,
        personal: true,
        type: "expense",
        state: "actual",
        amountMinor: 1_000n,
        currency: "EUR",
        occurredOn: new Date("2026-11-02T00:00:00Z"),
        sourceType: "MANUAL",
        baseCurrency: "USD",
        baseAmountMinor: 1_085n,
        fxRate: "1.085",
        fxAsOf: new Date("2026-10-30T00:00:00Z"),
        fxSource: "ecb",
      },
    });
    const response = await api.call("PATCH", "/v1/me", { body: { base_currency: "USD" } });
    expect(response.status).toBe(200);
    expect(response.body.data.onboarding.base_currency_confirmed).toBe(true);
    const row = await api.db.financialEvent.findUniqueOrThrow({ where: { id: event.id } });
    expect([row.baseAmountMinor, row.fxRate?.toFixed(8), row.fxSource]).toEqual([1_085n, "1.08500000", "ecb"]);

    const changed = await api.call("PATCH", "/v1/me", { body: { base_currency: "EUR" } });
    expect(changed.status).toBe(200);
    const rebased = await api.db.financialEvent.findUniqueOrThrow({ where: { id: event.id } });
    expect([rebased.baseAmountMinor, rebased.baseCurrency, rebased.fxSource]).toEqual([1_000n, "EUR", "identity"]);
  });

  it("documents the decision in the OpenAPI description", async () => {
    const doc = (await api.call("GET", "/v1/openapi.json", { token: null })).body;
    expect(doc.paths["/v1/me"].patch.description).toContain("re-expresses every stored base amount");
  });
});
