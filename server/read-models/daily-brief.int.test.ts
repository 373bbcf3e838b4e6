// GET /v1/daily-brief (§2.11) on both engines: an owner in Pacific/Auckland (UTC+13 in January)
// and one in America/Los_Angeles (UTC−8), so every day boundary is far from UTC's. What the
// brief knows is what was known at the END of its date there: rows are written with their
// created_at, and the void and reconciliation that come later go through the real writes (the
// void API at a later clock; an UPDATE for the reconciliation), whose trigger stamps uncounted_at.
//
// Auckland, the brief of 2027-01-20 (ends 2027-01-20T11:00Z), base EUR, figures by hand:
//   day (01-20): revenue 10 000; out expense 3 000, ad_spend 500, an expense of 200 voided the
//     next morning and an import line of 900 reconciled the next morning (both still count);
//     not known: an expense of 700 entered 30 minutes after midnight, one of 400 voided at
//     23:00; an agent decision (no direction). in 10 000, out 4 600, net 5 400, 5 events.
//   previous day (01-19): revenue 1 000, expense 4 000 → net −3 000; change 5 400 + 3 000 = 8 400.
//   month to date: in 11 000; out 4 600 + 4 000 + 2 000 (01-05) = 10 600; net 400.
//   burn [2026-10-23, 2027-01-20]: out 10 600 + 90 000 (2026-12-01) = 100 600, in 11 000, net
//     burn 89 600; cash 50 000 → floor(50 000 × 90 / 89 600) = 50 days, runs out 2027-03-11.
//   cash: 50 000 as of 01-20 09:00 local; the day before: 45 000; a later snapshot not known.
//   approvals at the end: one pending since 01-20, one approved the next day (created 01-19):
//     2, the oldest 01-19; one rejected during the day does not wait.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays } from "../../lib/days";
import type { TTestApi } from "../../test/helpers/api";
import { createTestApi } from "../../test/helpers/api";
import { expectApiError } from "../../test/helpers/api-error";
import { insertEventRow, type TEventRow } from "../../test/helpers/event-rows";
import { seedAgent, seedBusiness, seedOwner, seedSubscription, staticOwner, type TSeedOwner } from "../../test/helpers/seed";
import { fixedClock } from "../shared/clock";

const NOW = "2027-01-20T20:00:00Z"; // Auckland 2027-01-21 09:00; Los Angeles 2027-01-20 12:00
const DAY = "2027-01-20";
const END = "2027-01-20T11:00:00Z"; // the end of 2027-01-20 in Auckland (NZDT)

const clock = fixedClock(NOW);
let api: TTestApi;
let ownerId: string;
let atlas: string;
let agentId: string;
const ids: Record<string, string> = {};

const get = (query = "", token?: string) => api.call("GET", `/v1/daily-brief${query}`, { token });

async function snapshot(owner: string, businessId: string, amount: bigint, asOf: string, account: string) {
  await api.db.cashSnapshot.create({
    data: {
      ownerId: owner,
      businessId,
      personal: false,
      scope: `business:${businessId}`,
      amountMinor: amount,
      currency: "EUR",
      asOf: new Date(asOf),
      accountId: account,
      externalId: `manual:${account}:${asOf}`,
      dataClass: "manual",
      sourceType: "MANUAL",
    },
  });
}

async function approval(f: { status: string; createdAt: string; decidedAt?: string; kind?: string }) {
  await api.db.approval.create({
    data: {
      ownerId,
      agentId,
      kind: f.kind ?? "write",
      action: "expense.create",
      status: f.status,
      trigger: f.status === "auto_approved" ? "within_limits" : "level_recommend",
      params: {},
      createdAt: new Date(f.createdAt),
      decidedAt: f.decidedAt ? new Date(f.decidedAt) : null,
    },
  });
}

async function alert(owner: string, name: string, createdAt: string) {
  await api.db.alert.create({
    data: {
      ownerId: owner,
      code: `integration.${name}`,
      severity: "warning",
      message: name,
      refType: "signal",
      refId: name,
      occurredAt: new Date(createdAt),
      createdAt: new Date(createdAt),
    },
  });
}

beforeAll(async () => {
  api = await createTestApi({ clock, env: { FX_SOURCE: "mock" } });
  ({ ownerId } = await staticOwner(api));
  await api.db.owner.update({
    where: { id: ownerId },
    data: { baseCurrency: "EUR", timezone: "Pacific/Auckland", locale: "en-US", createdAt: new Date("2027-01-01T00:00:00Z") },
  });
  atlas = (await seedBusiness(api, { name: "Atlas", currency: "EUR" })).id;
  agentId = (await seedAgent(api, { name: "Bookkeeper" })).id;
  const event = async (name: string, f: Omit<TEventRow, "businessId">) =>
    (ids[name] = await insertEventRow(api, ownerId, { businessId: atlas, description: name, ...f }));
  const before = "2027-01-20T05:00:00Z"; // 18:00 on the 20th in Auckland

  await event("revenue", { type: "revenue", amount: 10_000n, on: DAY, createdAt: before });
  await event("expense", { type: "expense", amount: 3_000n, on: DAY, createdAt: before });
  await event("ads", { type: "ad_spend", amount: 500n, on: DAY, createdAt: before });
  await event("voided later", { type: "expense", amount: 200n, on: DAY, createdAt: before });
  await event("reconciled later", { type: "expense", amount: 900n, on: DAY, createdAt: before });
  await event("entered late", { type: "expense", amount: 700n, on: DAY, createdAt: "2027-01-20T11:30:00Z" });
  await event("voided at 23:00", { type: "expense", amount: 400n, on: DAY, createdAt: before });
  await event("decision", { type: "agent_action", amount: 0n, on: DAY, createdAt: before, agentId });
  await event("previous revenue", { type: "revenue", amount: 1_000n, on: "2027-01-19", createdAt: "2027-01-19T05:00:00Z" });
  await event("previous expense", { type: "expense", amount: 4_000n, on: "2027-01-19", createdAt: "2027-01-19T05:00:00Z" });
  await event("early month", { type: "expense", amount: 2_000n, on: "2027-01-05", createdAt: "2027-01-05T05:00:00Z" });
  await event("december", { type: "expense", amount: 90_000n, on: "2026-12-01", createdAt: "2027-01-02T05:00:00Z" });
  // Commitments: due in the week, overdue (dated the brief's day), fulfilled later (still open
  // then), created after the day, and one beyond the week.
  const planned = { type: "planned_expense", state: "planned", createdAt: before } as const;
  await event("P-week", { ...planned, amount: 1_500n, on: "2027-01-22" });
  await event("P-overdue", { ...planned, amount: 250n, on: "2027-01-10" });
  await event("P-fulfilled later", { ...planned, amount: 600n, on: "2027-01-23" });
  await event("P-entered late", { ...planned, amount: 800n, on: "2027-01-22", createdAt: "2027-01-20T12:00:00Z" });
  await event("P-next week", { ...planned, amount: 999n, on: "2027-01-27" });
  await seedSubscription(api, {
    business_id: atlas,
    name: "S-hosting",
    amount_minor: 1_200,
    currency: "EUR",
    billing_interval: "month",
    next_charge_on: "2027-01-25",
  });

  // What happened after: the void (API, clock at 01:00 on the 21st), the void during the day,
  // the reconciliation and the fulfilment the next morning (UPDATEs; the trigger stamps them).
  clock.set("2027-01-20T12:00:00Z");
  expect((await api.call("POST", `/v1/events/${ids["voided later"]}/void`, { body: {} })).status).toBe(200);
  clock.set("2027-01-20T10:00:00Z");
  expect((await api.call("POST", `/v1/events/${ids["voided at 23:00"]}/void`, { body: {} })).status).toBe(200);
  clock.set(NOW);
  await api.db.financialEvent.update({
    where: { id: ids["reconciled later"] },
    data: { reconciled: true, updatedAt: new Date("2027-01-20T19:00:00Z") },
  });
  await api.db.financialEvent.update({
    where: { id: ids["P-fulfilled later"] },
    data: { fulfilledByEventId: ids.revenue, updatedAt: new Date("2027-01-20T19:00:00Z") },
  });

  await snapshot(ownerId, atlas, 45_000n, "2027-01-18T20:00:00Z", "a1");
  await snapshot(ownerId, atlas, 50_000n, "2027-01-19T20:00:00Z", "a1");
  await snapshot(ownerId, atlas, 99_999n, "2027-01-20T11:30:00Z", "a1");

  await approval({ status: "pending", createdAt: "2027-01-20T02:00:00Z" });
  await approval({ status: "approved", createdAt: "2027-01-19T00:00:00Z", decidedAt: "2027-01-20T12:00:00Z" });
  await approval({ status: "rejected", createdAt: "2027-01-19T01:00:00Z", decidedAt: "2027-01-20T05:00:00Z" });
  await approval({ status: "auto_approved", createdAt: "2027-01-20T03:00:00Z", decidedAt: "2027-01-20T03:00:00Z" });
  await approval({ status: "pending", kind: "request", createdAt: "2027-01-20T11:00:00Z" }); // the 21st

  await alert(ownerId, "on_the_day", "2027-01-20T00:00:00Z");
  await alert(ownerId, "the_day_before", "2027-01-19T10:59:59Z");
  await alert(ownerId, "the_day_after", END);
});
afterAll(async () => api?.close());

describe("GET /v1/daily-brief: the day as known at its end (Pacific/Auckland)", () => {
  it("every figure of 2027-01-20", async () => {
    const response = await get(`?date=${DAY}`);
    expect(response.status).toBe(200);
    const { data } = response.body;
    expect(data).toMatchObject({
      currency: "EUR",
      base_currency: "EUR",
      date: DAY,
      timezone: "Pacific/Auckland",
      generated_at: new Date(NOW).toISOString(),
      day: { in_minor: 10_000, out_minor: 4_600, net_minor: 5_400, events: 5 },
      month_to_date: { from: "2027-01-01", in_minor: 11_000, out_minor: 10_600, net_minor: 400 },
      cash: { amount_minor: 50_000, as_of: "2027-01-19T20:00:00.000Z" },
      runway: { days: 50, runs_out_on: "2027-03-11", status: "finite" },
      change_vs_previous_day: { net_minor: 8_400, cash_minor: 5_000 },
      pending_approvals: { count: 2, oldest_created_at: "2027-01-19T00:00:00.000Z" },
      agent_activity: { auto_approved: 1, held: 1, decisions: 1 },
      headline: "Jan 20, 2027: in €100.00, out €46.00, net €54.00. Cash €500.00. Runway 50 days. 2 approvals waiting.",
    });
    expect(data.day.largest.map((e: any) => [e.description, e.base_amount_minor])).toEqual([
      ["revenue", 10_000],
      ["expense", 3_000],
      ["reconciled later", 900],
      ["ads", 500],
      ["voided later", 200],
    ]);
    expect(data.day.largest[0]).toEqual({
      id: ids.revenue,
      type: "revenue",
      amount_minor: 10_000,
      currency: "EUR",
      base_amount_minor: 10_000,
      description: "revenue",
      business_id: atlas,
    });
    expect(data.upcoming_7_days.map((i: any) => [i.date, i.name, i.amount_minor, i.overdue])).toEqual([
      [DAY, "P-overdue", 250, true],
      ["2027-01-22", "P-week", 1_500, false],
      ["2027-01-23", "P-fulfilled later", 600, false],
      ["2027-01-25", "S-hosting", 1_200, false],
    ]);
    expect(data.new_alerts.map((a: any) => a.message)).toEqual(["on_the_day"]);
    // At the day's end: manual entries (revenue, expenses: incomplete) and a manual snapshot
    // 15 hours old (cash: mostly covered); ads and billing have no source, so no warning.
    expect(data.coverage_warnings).toEqual([
      { domain: "revenue", status: "incomplete" },
      { domain: "expenses", status: "incomplete" },
    ]);
    expect(Object.keys(response.body.coverage).sort()).toEqual(["ads", "billing", "cash", "expenses", "overall", "revenue"]);
    expect(response.body.fx).toMatchObject({ base_currency: "EUR", display_currency: "EUR" });
  });

  it("a later void and reconciliation left their events countable until then: the trigger stamped uncounted_at", async () => {
    const rows = await api.db.financialEvent.findMany({
      where: {
        id: {
          in: [ids["voided later"]!, ids["voided at 23:00"]!, ids["reconciled later"]!, ids["P-fulfilled later"]!, ids.revenue!],
        },
      },
      select: { id: true, uncountedAt: true },
    });
    const at = Object.fromEntries(rows.map((r) => [r.id, r.uncountedAt?.toISOString() ?? null]));
    expect(at[ids["voided later"]!]).toBe("2027-01-20T12:00:00.000Z");
    expect(at[ids["voided at 23:00"]!]).toBe("2027-01-20T10:00:00.000Z");
    expect(at[ids["reconciled later"]!]).toBe("2027-01-20T19:00:00.000Z");
    expect(at[ids["P-fulfilled later"]!]).toBe("2027-01-20T19:00:00.000Z");
    expect(at[ids.revenue!]).toBeNull();
  });

  it("today (the default) counts what is known now; the void and the late entry have their effect", async () => {
    // Auckland's today is 2027-01-21: nothing dated it, but the month and the burn see 01-20 as known now.
    const { data } = (await get()).body;
    expect(data).toMatchObject({
      date: "2027-01-21",
      day: { in_minor: 0, out_minor: 0, net_minor: 0, events: 0, largest: [] },
      // 10 600 − 200 voided − 900 reconciled + 700 entered late.
      month_to_date: { in_minor: 11_000, out_minor: 10_200 },
      cash: { amount_minor: 99_999 },
      // 01-20 as known now: in 10 000, out 3 000 + 500 + 700 entered late.
      change_vs_previous_day: { net_minor: -(10_000 - 4_200), cash_minor: 99_999 - 50_000 },
    });
    expect((await get(`?date=2027-01-21`)).body.data.month_to_date).toEqual(data.month_to_date);
  });

  it("a date after the owner's today is 400 naming date; malformed too", async () => {
    expectApiError(await get("?date=2027-01-22"), 400, "validation_error");
    const response = await get("?date=2027-01-22");
    expect(response.body.error.details.issues[0].path).toBe("date");
    expectApiError(await get("?date=2027-02-30"), 400, "validation_error");
    expectApiError(await get("?date=yesterday"), 400, "validation_error");
  });

  it("a day before the owner existed is an empty brief", async () => {
    const response = await get("?date=2026-12-31");
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({
      currency: "EUR",
      base_currency: "EUR",
      date: "2026-12-31",
      timezone: "Pacific/Auckland",
      generated_at: new Date(NOW).toISOString(),
      day: { in_minor: 0, out_minor: 0, net_minor: 0, events: 0, largest: [] },
      month_to_date: { from: "2026-12-01", in_minor: 0, out_minor: 0, net_minor: 0 },
      cash: null,
      runway: { days: null, runs_out_on: null, status: "unknown" },
      change_vs_previous_day: { net_minor: 0, cash_minor: null },
      upcoming_7_days: [],
      new_alerts: [],
      pending_approvals: { count: 0, oldest_created_at: null },
      agent_activity: { auto_approved: 0, held: 0, decisions: 0 },
      coverage_warnings: [],
      headline: "Dec 31, 2026: in €0.00, out €0.00, net €0.00. Cash unknown. Runway unknown. 0 approvals waiting.",
    });
    expect(response.body.coverage.overall).toBe("missing");
    // The owner's first day (created 2027-01-01 13:00 in Auckland) is a brief.
    expect((await get("?date=2027-01-01")).body.data.month_to_date.from).toBe("2027-01-01");
  });

  it("display_currency: each component converted once, nets recomputed; the listed items stay in the base", async () => {
    const { data } = (await get(`?date=${DAY}&display_currency=USD`)).body;
    // × 1.0842, half even.
    expect(data).toMatchObject({
      currency: "USD",
      base_currency: "EUR",
      day: { in_minor: 10_842, out_minor: 4_987, net_minor: 10_842 - 4_987 },
      cash: { amount_minor: 54_210 },
      change_vs_previous_day: { cash_minor: 54_210 - 48_789 },
    });
    expect(data.day.largest[0].base_amount_minor).toBe(10_000);
    expect(data.headline).toBe(
      "Jan 20, 2027: in $108.42, out $49.87, net $58.55. Cash $542.10. Runway 50 days. 2 approvals waiting.",
    );
    expectApiError(await get("?display_currency=usd"), 400, "validation_error");
  });

  it("the headline in the owner's locale", async () => {
    await api.db.owner.update({ where: { id: ownerId }, data: { locale: "de-DE" } });
    try {
      const { data } = (await get(`?date=${DAY}`)).body;
      // German puts a no-break space between the amount and the sign.
      expect(data.headline).toBe(
        "20.01.2027: in 100,00\u00a0€, out 46,00\u00a0€, net 54,00\u00a0€. Cash 500,00\u00a0€. Runway 50 days. 2 approvals waiting.",
      );
    } finally {
      await api.db.owner.update({ where: { id: ownerId }, data: { locale: "en-US" } });
    }
  });

  it("an agent without finances:observe on * is 403 scope_denied, audited (pinned-wave3 §2.1)", async () => {
    const agent = await seedAgent(api, { grants: [{ scope: "forecast:observe", resource: "*", level: "execute" }] });
    expectApiError(await get("", agent.token), 403, "scope_denied");
    expect(await api.db.auditEntry.count({ where: { ownerId, action: "access.denied", actorId: agent.id } })).toBe(1);
  });
});

describe("GET /v1/daily-brief: America/Los_Angeles, and another owner's books", () => {
  let la: TSeedOwner;

  beforeAll(async () => {
    la = await seedOwner(api);
    await api.db.owner.update({
      where: { id: la.ownerId },
      data: { baseCurrency: "EUR", timezone: "America/Los_Angeles", createdAt: new Date("2027-01-01T00:00:00Z") },
    });
    const business = (await seedBusiness(api, { name: "Harbor", currency: "EUR" }, la.token)).id;
    const row = (f: TEventRow) => insertEventRow(api, la.ownerId, { businessId: business, ...f });
    // The end of 2027-01-19 in Los Angeles (PST) is 2027-01-20T08:00Z.
    await row({ type: "revenue", amount: 7_000n, on: "2027-01-19", createdAt: "2027-01-20T07:59:59Z" });
    await row({ type: "expense", amount: 300n, on: "2027-01-19", createdAt: "2027-01-20T08:00:00Z" });
    await snapshot(la.ownerId, business, 12_000n, "2027-01-20T07:59:00Z", "h1");
    await snapshot(la.ownerId, business, 13_000n, "2027-01-20T08:00:00Z", "h1");
    await alert(la.ownerId, "la_evening", "2027-01-20T07:00:00Z");
  });

  it("counts the day's end in the owner's zone", async () => {
    const { data } = (await get("?date=2027-01-19", la.token)).body;
    expect(data).toMatchObject({
      date: "2027-01-19",
      timezone: "America/Los_Angeles",
      day: { in_minor: 7_000, out_minor: 0, events: 1 },
      cash: { amount_minor: 12_000 },
      pending_approvals: { count: 0 },
      agent_activity: { auto_approved: 0, held: 0, decisions: 0 },
    });
    expect(data.new_alerts.map((a: any) => a.message)).toEqual(["la_evening"]);
    expect(data.upcoming_7_days).toEqual([]);
  });

  it("today there is 2027-01-20 (Auckland is already on the 21st)", async () => {
    expect((await get("", la.token)).body.data.date).toBe("2027-01-20");
    expectApiError(await get("?date=2027-01-21", la.token), 400, "validation_error");
  });

  it("each owner sees only their own books", async () => {
    const { data } = (await get(`?date=${DAY}`, la.token)).body;
    expect(data).toMatchObject({ day: { events: 0, in_minor: 0, out_minor: 0 }, pending_approvals: { count: 0 } });
    expect(data.new_alerts).toEqual([]);
    expect(data.upcoming_7_days).toEqual([]);
    expect(data.day.largest.every((e: any) => e.business_id !== atlas)).toBe(true);
  });
});

describe("GET /v1/daily-brief: the week ahead as known then", () => {
  it("a commitment created after the day's end is not listed; one of the day after the week is not either", async () => {
    const { data } = (await get(`?date=${DAY}`)).body;
    const names = data.upcoming_7_days.map((i: any) => i.name);
    expect(names).not.toContain("P-entered late");
    expect(names).not.toContain("P-next week");
    expect(addDays(DAY, 6)).toBe("2027-01-26");
  });
});
