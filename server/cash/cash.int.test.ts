// Cash snapshots: the owner's manual POST (201 created, 200 replaced or kept) and the shared
// upsert rule (one snapshot per account and day; a later as_of overwrites, an earlier one is
// kept), including concurrent writers of one account-day on PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { todayUtc } from "../../lib/days";
import { createTestApi, type TTestApi } from "../../test/helpers/api";
import { expectApiError } from "../../test/helpers/api-error";
import { seedBusiness, seedOwner, staticOwner } from "../../test/helpers/seed";
import { inTransaction } from "../db/transaction";
import { upsertCashSnapshots } from "./cash-service";

let api: TTestApi;
let ownerId: string;
let businessId: string;

const TODAY = todayUtc();
const UNKNOWN = "5d0c0c1e-9a7e-4e0c-8f5e-3d8a2b1c0f00";

const snapshot = (body: Record<string, unknown> = {}) =>
  api.call("POST", "/v1/cash-snapshots", {
    body: {
      business_id: businessId,
      amount_minor: 125_000,
      currency: "EUR",
      as_of: "2026-03-02T08:00:00Z",
      payload: { account_id: "main" },
      ...body,
    },
  });

beforeAll(async () => {
  api = await createTestApi();
  ownerId = (await staticOwner(api)).ownerId;
  businessId = (await seedBusiness(api)).id;
});
afterAll(async () => api?.close());

describe("POST /v1/cash-snapshots", () => {
  it("records a manual snapshot (201) keyed by account and the UTC day of as_of", async () => {
    const response = await snapshot({
      amount_minor: -4200,
      as_of: "2026-03-01T23:30:00-02:00",
      payload: { account_id: "acc-1", iban_last4: "12ab" },
    });
    expect(response.status).toBe(201);
    expect(response.body.data).toEqual({
      id: expect.any(String),
      business_id: businessId,
      project_id: null,
      personal: false,
      amount_minor: -4200,
      currency: "EUR",
      base_amount_minor: -4554,
      base_currency: "USD",
      fx: { rate: "1.08420000", as_of: TODAY, source: "mock", kind: "current", stale: false },
      as_of: "2026-03-02T01:30:00.000Z",
      account_id: "acc-1",
      iban_last4: "12AB",
      external_id: "manual:acc-1:2026-03-02",
      data_class: "manual",
      source_type: "MANUAL",
      integration_id: null,
      provenance: { source: { type: "MANUAL", integration_id: null, external_id: "manual:acc-1:2026-03-02" } },
      outcome: "created",
      created_at: expect.stringMatching(/Z$/),
      updated_at: expect.stringMatching(/Z$/),
    });
    expect(await api.db.auditEntry.count({ where: { action: "cash_snapshot.created", targetId: response.body.data.id } })).toBe(
      1,
    );
  });

  it("overwrites the day's snapshot only with a later as_of (200 replaced), else keeps it (200 kept)", async () => {
    const account = { account_id: "acc-2" };
    const first = await snapshot({ payload: account, amount_minor: 100, as_of: "2026-04-10T09:00:00Z" });
    expect(first.status).toBe(201);
    const later = await snapshot({ payload: account, amount_minor: 200, as_of: "2026-04-10T18:00:00Z" });
    expect(later.status).toBe(200);
    expect(later.body.data).toMatchObject({ id: first.body.data.id, outcome: "replaced", amount_minor: 200 });
    for (const as_of of ["2026-04-10T12:00:00Z", "2026-04-10T18:00:00Z"]) {
      const earlier = await snapshot({ payload: account, amount_minor: 999, as_of });
      expect(earlier.status).toBe(200);
      expect(earlier.body.data).toMatchObject({
        id: first.body.data.id,
        outcome: "kept",
        amount_minor: 200,
        as_of: "2026-04-10T18:00:00.000Z",
      });
    }
    const nextDay = await snapshot({ payload: account, amount_minor: 300, as_of: "2026-04-11T00:00:00Z" });
    expect(nextDay.status).toBe(201);
    expect(nextDay.body.data.external_id).toBe("manual:acc-2:2026-04-11");
    expect(await api.db.cashSnapshot.count({ where: { accountId: "acc-2" } })).toBe(2);
    expect(await api.db.auditEntry.count({ where: { action: "cash_snapshot.replaced", targetId: first.body.data.id } })).toBe(1);
  });

  it("records a personal snapshot", async () => {
    const response = await snapshot({ business_id: undefined, personal: true, payload: { account_id: "wallet" } });
    expect(response.status).toBe(201);
    expect(response.body.data).toMatchObject({ business_id: null, personal: true });
  });

  it.each([
    [{ business_id: undefined }, "business_id"],
    [{ personal: true }, "business_id"],
    [{ amount_minor: 1.5 }, "amount_minor"],
    [{ currency: "eur" }, "currency"],
    [{ currency: "XYZ" }, "currency"],
    [{ as_of: "2026-03-02" }, "as_of"],
    [{ as_of: new Date(Date.now() + 3_600_000).toISOString() }, "as_of"],
    [{ payload: {} }, "payload.account_id"],
    [{ payload: { account_id: "" } }, "payload.account_id"],
    [{ payload: { account_id: "a", iban_last4: "12345" } }, "payload.iban_last4"],
  ])("refuses %j with 400 naming %s, writing nothing", async (patch, field) => {
    const before = await api.db.cashSnapshot.count();
    const response = await snapshot(patch);
    expectApiError(response, 400, "validation_error", { issue: field });
    expect(await api.db.cashSnapshot.count()).toBe(before);
  });

  it("answers 404 for another owner's business and 422 for an uncovered currency, writing nothing", async () => {
    const before = await api.db.cashSnapshot.count();
    expect((await snapshot({ business_id: UNKNOWN })).status).toBe(404);
    const brl = await snapshot({ currency: "BRL", payload: { account_id: "brl" } });
    expectApiError(brl, 422, "currency_unsupported");
    expect(await api.db.cashSnapshot.count()).toBe(before);
  });

  it("keeps the latest as_of when 10 writers of one account-day race", async () => {
    const hours = [3, 9, 1, 7, 5, 10, 2, 8, 4, 6];
    const responses = await Promise.all(
      hours.map((hour) =>
        snapshot({
          payload: { account_id: "race" },
          amount_minor: hour,
          as_of: `2026-05-05T${String(hour).padStart(2, "0")}:00:00Z`,
        }),
      ),
    );
    expect(responses.filter((r) => r.status === 201)).toHaveLength(1);
    expect(responses.every((r) => r.status === 201 || r.status === 200)).toBe(true);
    const rows = await api.db.cashSnapshot.findMany({ where: { accountId: "race" } });
    expect(rows).toHaveLength(1);
    expect(rows[0]!.asOf.toISOString()).toBe("2026-05-05T10:00:00.000Z");
    expect(rows[0]!.amountMinor).toBe(10n);
  });
});

describe("snapshots are keyed by their scope and account", () => {
  it("keeps two businesses' snapshots of one account label and day apart, and personal apart from both", async () => {
    const second = (await seedBusiness(api, { name: "Boreal" })).id;
    const account = { account_id: "shared-label" };
    const a = await snapshot({ payload: account, amount_minor: 1_000, as_of: "2026-07-01T08:00:00Z" });
    expect(a.status).toBe(201);
    // B's later balance under the same label: a new snapshot of B, not A's moved to B.
    const b = await snapshot({ business_id: second, payload: account, amount_minor: 2_000, as_of: "2026-07-01T09:00:00Z" });
    expect(b.status, b.text).toBe(201);
    expect(b.body.data).toMatchObject({ outcome: "created", business_id: second, amount_minor: 2_000 });
    expect(b.body.data.id).not.toBe(a.body.data.id);
    // An earlier one of B is not "kept" as A's either.
    const earlier = await snapshot({ business_id: second, payload: account, amount_minor: 3, as_of: "2026-07-01T07:00:00Z" });
    expect(earlier.body.data).toMatchObject({ id: b.body.data.id, outcome: "kept", business_id: second, amount_minor: 2_000 });
    const personal = await snapshot({ business_id: undefined, personal: true, payload: account, as_of: "2026-07-01T10:00:00Z" });
    expect(personal.status).toBe(201);
    expect(personal.body.data).toMatchObject({ outcome: "created", personal: true, business_id: null });

    const rows = await api.db.cashSnapshot.findMany({ where: { accountId: "shared-label" }, orderBy: { asOf: "asc" } });
    expect(rows.map((r) => [r.businessId, r.personal, r.amountMinor])).toEqual([
      [businessId, false, 1_000n],
      [second, false, 2_000n],
      [null, true, 125_000n],
    ]);
    // A's own repeat still replaces A's.
    const again = await snapshot({ payload: account, amount_minor: 1_500, as_of: "2026-07-01T11:00:00Z" });
    expect(again.body.data).toMatchObject({ id: a.body.data.id, outcome: "replaced", business_id: businessId });
    const personalAgain = await snapshot({
      business_id: undefined,
      personal: true,
      payload: account,
      amount_minor: 7,
      as_of: "2026-07-01T12:00:00Z",
    });
    expect(personalAgain.body.data).toMatchObject({ id: personal.body.data.id, outcome: "replaced", personal: true });
  });
});

describe("upsertCashSnapshots (the snapshot path)", () => {
  it("counts inserted, deduped and rejected per item, and marks integration snapshots real", async () => {
    const other = await seedOwner(api, "other-cash@example.test");
    const foreign = await seedBusiness(api, { name: "Not yours", currency: "USD" }, other.token);
    const integrationId = "0f9e8d7c-6b5a-4c3d-8e2f-1a0b9c8d7e6f";
    const source = (external_id: string) => ({ source: { type: "BANK_API", integration_id: integrationId, external_id } });
    const result = await inTransaction(api.db, (tx) =>
      upsertCashSnapshots(
        tx,
        ownerId,
        [
          {
            business_id: businessId,
            amount_minor: 10,
            currency: "EUR",
            as_of: "2026-06-01T08:00:00Z",
            payload: { account_id: "b1" },
            provenance: source("bank_provider_a:b1:2026-06-01"),
          },
          {
            business_id: businessId,
            amount_minor: 20,
            currency: "EUR",
            as_of: "2026-06-01T09:00:00Z",
            payload: { account_id: "b1" },
            provenance: source("bank_provider_a:b1:2026-06-01"),
          },
          {
            business_id: businessId,
            amount_minor: 5,
            currency: "EUR",
            as_of: "2026-06-01T07:00:00Z",
            payload: { account_id: "b1" },
            provenance: source("bank_provider_a:b1:2026-06-01"),
          },
          {
            business_id: businessId,
            amount_minor: 1,
            currency: "BRL",
            as_of: "2026-06-01T08:00:00Z",
            payload: { account_id: "b2" },
          },
          {
            business_id: foreign.id,
            amount_minor: 1,
            currency: "EUR",
            as_of: "2026-06-01T08:00:00Z",
            payload: { account_id: "b3" },
          },
          {
            business_id: businessId,
            amount_minor: 1,
            currency: "EUR",
            as_of: "2026-06-01T08:00:00Z",
            payload: { account_id: "b4" },
            provenance: source("bank_provider_a:b4:2026-05-31"),
          },
          { personal: true, amount_minor: 7, currency: "USD", as_of: "2026-06-01T08:00:00Z", payload: { account_id: "p1" } },
        ],
        { now: new Date() },
      ),
    );
    expect(result).toMatchObject({ inserted: 3, replaced: 1, deduped: 1 });
    expect(result.rejected.map((r) => [r.index, r.code])).toEqual([
      [3, "currency_unsupported"],
      [4, "validation_error"],
      [5, "validation_error"],
    ]);
    expect(result.items.map((item) => item.outcome)).toEqual([
      "created",
      "replaced",
      "kept",
      "rejected",
      "rejected",
      "rejected",
      "created",
    ]);
    const stored = await api.db.cashSnapshot.findFirstOrThrow({ where: { ownerId, accountId: "b1" } });
    expect(stored).toMatchObject({
      amountMinor: 20n,
      dataClass: "real",
      sourceType: "BANK_API",
      integrationId,
      externalId: "bank_provider_a:b1:2026-06-01",
    });
    expect(await api.db.cashSnapshot.count({ where: { businessId: foreign.id } })).toBe(0);
  });
});
