// GET /v1/reports/cash-history (pinned-wave3 §4) on both engines: days before any snapshot are
// none; a day with a snapshot is measured and equals K6 at its end (cashPosition endOf, every
// account's latest, at today's rate); the days after are the last measured cash plus the
// counted actuals since (voided, planned and non-money events left out); a project counts its
// business's cash; the owner's sums every account; a display currency converts each day once;
// the range's 400s, tenants (404) and agents (403).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays } from "../../lib/days";
import { createTestApi, type TTestApi } from "../../test/helpers/api";
import { expectApiError } from "../../test/helpers/api-error";
import { businessGrant, createdData, seedAgent } from "../../test/helpers/seed";
import { convertExact } from "../fx/money";
import { cashPosition } from "../read-models/cash";
import { readOwnerDay } from "../read-models/period";
import { fixedClock } from "../shared/clock";
import { newLedgerOwner, type TLedgerOwner } from "../../test/helpers/generated-ledger";

const NOW = new Date("2026-05-10T12:00:00Z");
const clock = fixedClock(NOW);
let api: TTestApi;

beforeAll(async () => {
  api = await createTestApi({ clock });
});
afterAll(async () => api?.close());

async function snapshot(o: TLedgerOwner, body: Record<string, unknown>, asOf: string, account: string) {
  createdData(
    await api.call("POST", "/v1/cash-snapshots", {
      token: o.token,
      body: { currency: "EUR", ...body, as_of: asOf, payload: { account_id: account } },
    }),
    "a snapshot",
  );
}

async function event(o: TLedgerOwner, path: string, body: Record<string, unknown>) {
  return createdData(await api.call("POST", path, { token: o.token, body: { currency: "EUR", ...body } }), "an event");
}

async function history(o: TLedgerOwner, query: string, token = o.token) {
  const response = await api.call("GET", `/v1/reports/cash-history?${query}`, { token });
  expect(response.status, response.text).toBe(200);
  return response.body;
}

describe("measured, derived and unknown days", () => {
  it("none before a snapshot, K6 on snapshot days, the last measured cash plus the actuals since after them", async () => {
    const o = await newLedgerOwner(api);
    const a = { business_id: o.businessA };
    await snapshot(o, { ...a, amount_minor: 100_000 }, "2026-03-29T09:00:00Z", "main");
    await snapshot(o, { ...a, amount_minor: 5_000, currency: "USD" }, "2026-03-30T09:00:00Z", "usd");
    await event(o, "/v1/revenues", { ...a, amount_minor: 2_000, occurred_on: "2026-03-31" });
    await event(o, "/v1/expenses", { project_id: o.projectId, amount_minor: 700, occurred_on: "2026-04-01" });
    await event(o, "/v1/expenses", { personal: true, amount_minor: 999, occurred_on: "2026-04-01" });
    await event(o, "/v1/planned-expenses", { ...a, amount_minor: 300, occurred_on: "2026-04-01" });
    const voided = await event(o, "/v1/expenses", { ...a, amount_minor: 50_000, occurred_on: "2026-04-01" });
    expect((await api.call("POST", `/v1/events/${voided.id}/void`, { token: o.token, body: { reason: "typo" } })).status).toBe(
      200,
    );
    await snapshot(o, { ...a, amount_minor: 90_000 }, "2026-04-03T09:00:00Z", "main");
    await event(o, "/v1/revenues", { ...a, amount_minor: 1_000, occurred_on: "2026-04-04" });

    const data = (await history(o, `business_id=${o.businessA}&from=2026-03-28&to=2026-04-05`)).data;
    expect(data.scope).toEqual({ business_id: o.businessA });
    expect(data.days.map((d: any) => [d.date, d.source])).toEqual([
      ["2026-03-28", "none"],
      ["2026-03-29", "snapshot"],
      ["2026-03-30", "snapshot"],
      ["2026-03-31", "derived"],
      ["2026-04-01", "derived"],
      ["2026-04-02", "derived"],
      ["2026-04-03", "snapshot"],
      ["2026-04-04", "derived"],
      ["2026-04-05", "derived"],
    ]);
    expect(data.days[0]).not.toHaveProperty("cash_minor");
    const day = await readOwnerDay(api.db, o.ownerId, clock);
    const scope = { kind: "business" as const, businessId: o.businessA };
    for (const d of data.days.filter((x: any) => x.source === "snapshot")) {
      expect(d.cash_minor).toBe(Number((await cashPosition(api.db, day, scope, { endOf: d.date }))!.amountMinor));
    }
    const measured30 = data.days[2].cash_minor;
    expect(measured30).toBeGreaterThan(100_000); // the USD account, at today's rate, added
    expect(data.days[3].cash_minor).toBe(measured30 + 2_000);
    expect(data.days[4].cash_minor).toBe(measured30 + 2_000 - 700); // the project's expense counts; planned, voided, personal do not
    expect(data.days[5].cash_minor).toBe(data.days[4].cash_minor);
    expect(data.days[7].cash_minor).toBe(data.days[6].cash_minor + 1_000);

    // A range starting after the snapshots: derived from the accounts' latest before it.
    const later = (await history(o, `business_id=${o.businessA}&from=2026-04-04&to=2026-04-04`)).data;
    expect(later.days).toEqual([{ date: "2026-04-04", cash_minor: data.days[7].cash_minor, source: "derived" }]);
    const mid = (await history(o, `business_id=${o.businessA}&from=2026-04-01&to=2026-04-01`)).data;
    expect(mid.days[0].cash_minor).toBe(data.days[4].cash_minor);

    // A project counts its business's cash; personal has none; the owner sums every account.
    const project = (await history(o, `project_id=${o.projectId}&from=2026-03-28&to=2026-04-05`)).data;
    expect(project.days.map((d: any) => d.cash_minor)).toEqual(data.days.map((d: any) => d.cash_minor));
    const personal = (await history(o, "personal=true&from=2026-03-28&to=2026-04-05")).data;
    expect(personal.days.every((d: any) => d.source === "none")).toBe(true);
    await snapshot(o, { personal: true, amount_minor: 1_234 }, "2026-04-01T20:00:00Z", "wallet");
    // A measured day is the snapshots' own: the actuals before it on that day are in the balances measured.
    const owner = (await history(o, "from=2026-03-28&to=2026-04-05")).data;
    expect(owner.days[4]).toEqual({
      date: "2026-04-01",
      cash_minor: measured30 + 1_234,
      source: "snapshot",
    });
    expect(owner.days[5].cash_minor).toBe(owner.days[4].cash_minor);

    // A display currency converts each day's cash once.
    const shown = (await history(o, `business_id=${o.businessA}&from=2026-03-28&to=2026-04-05&display_currency=USD`)).data;
    const rate = shown.fx_used.find((f: any) => f.from === "EUR" && f.to === "USD").rate;
    expect(shown.currency).toBe("USD");
    expect(shown.days.map((d: any) => d.cash_minor)).toEqual(
      data.days.map((d: any) =>
        d.cash_minor === undefined ? undefined : Number(convertExact(BigInt(d.cash_minor), "EUR", "USD", rate)),
      ),
    );
  });

  it("defaults to the last 12 whole months and the current one; refuses a bad range, other owners' ids, uncovered agents", async () => {
    const o = await newLedgerOwner(api);
    const data = (await history(o, "")).data;
    expect(data.from).toBe("2025-05-01");
    expect(data.days).toHaveLength(375);
    expect(data.days.at(-1)).toEqual({ date: "2026-05-10", source: "none" });
    expectApiError(
      await api.call("GET", "/v1/reports/cash-history?from=2023-01-01", { token: o.token }),
      400,
      "validation_error",
    );
    const other = await newLedgerOwner(api);
    expectApiError(
      await api.call("GET", `/v1/reports/cash-history?business_id=${other.businessA}`, { token: o.token }),
      404,
      "not_found",
    );
    const agent = await seedAgent(api, { grants: [businessGrant(o.businessA, { scope: "finances:observe" })] }, o.token);
    expect((await api.call("GET", `/v1/reports/cash-history?business_id=${o.businessA}`, { token: agent.token })).status).toBe(
      200,
    );
    expectApiError(await api.call("GET", "/v1/reports/cash-history", { token: agent.token }), 403, "scope_denied");
    void addDays;
  });
});
