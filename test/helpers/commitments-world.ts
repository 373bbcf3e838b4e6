// One owner's books for the forecast, free capital and overview tests (server/read-models), on
// the read clock 2027-06-15 10:00 UTC (owner in UTC, base EUR, FX_SOURCE=mock: 1 EUR = 1.0842
// USD, so 1 USD = 0.92233905 EUR). Subscriptions and reservations go through the API; events
// and cash snapshots are written as rows, for states one call cannot make (voided, fulfilled,
// reconciled) and a dated history without a call per row. The figures every test expects are
// computed by hand below.
//
// Atlas (EUR), projects Web and App; Beacon; personal.
//   Cash (K6): Atlas a1 100 000 EUR (06-14; an older 50 000 on 06-01 is not the latest), a2
//   10 000 USD (06-10) → 9 223 EUR: 109 223, as of 06-10. Beacon 20 000; personal 5 000.
//   Reserved (K7): Atlas 5 000 + (3 000 − 1 000 released) + Web 1 500 = 8 500; an expired one
//   (7 000, expires 06-14) and a released one do not count.
//   Planned (K7), out unless said: P-overdue 1 000 (06-01 → today, overdue); P-rent 20 000
//   (06-20); Web's P-web 700 (06-18); the recurring expense's first charge 5 000 (06-20,
//   planned recurring_expense with its subscription_id); P-later 500 (07-20, beyond 30 days);
//   P-deal 30 000 IN (07-01, a planned revenue); a fulfilled one (06-25) and a voided one
//   (06-26) never count. Personal P-home 400 (06-17).
//   Subscriptions (Atlas): S-month 999 EUR monthly from 2027-01-31 → 06-30 in 30 days;
//   S-week 100 USD weekly from 06-15 → 06-15, 06-22, 06-29, 07-06, 07-13, 92 EUR each;
//   S-rec 5 000 monthly from 06-20 (skipped on 06-20: the event; 07-20 is beyond 30 days);
//   S-shared 1 000 monthly from 07-01, allocated App 6 667 / Web 3 333 bps (Web's part 333);
//   Web's S-web 300 quarterly from 06-16; a paused one never counts.
//   Actuals of [03-18, 06-15] (Atlas): revenue 90 000 (05-01), refund in 450 (05-25), expense
//   45 000 (04-01), ad_spend 9 000 (06-15), recurring_expense 18 000 (05-15), refund out 900
//   (05-20); not counted: revenue 70 000 on 03-17 (before the window), a voided expense, a
//   reconciled one. T_in = 90 450, T_out = 45 000 + 9 000 + 900 = 54 900, out90 = 72 900.
//   Beacon: expense 27 000 (06-01).
import { randomUUID } from "node:crypto";
import { fixedClock } from "../../server/shared/clock";
import { createdData, seedBusiness, seedProject, seedReservation, seedSubscription, staticOwner } from "./seed";
import { createTestApi, type TTestApi } from "./api";
import { insertEventRow, type TEventRow } from "./event-rows";

export const WORLD_NOW = "2027-06-15T10:00:00Z";
export const WORLD_TODAY = "2027-06-15";

export type TCommitmentsWorld = {
  api: TTestApi;
  ownerId: string;
  atlas: string;
  beacon: string;
  web: string;
  app: string;
  ids: Record<string, string>;
};

/** An event row of this owner (test/helpers/event-rows.ts). */
export const insertEvent = (api: TTestApi, ownerId: string, f: TEventRow): Promise<string> => insertEventRow(api, ownerId, f);

/** A manual cash snapshot row (POST /v1/cash-snapshots refuses an as_of after the wall clock's now). */
async function snapshot(
  api: TTestApi,
  ownerId: string,
  f: { businessId?: string; amount: bigint; currency: string; asOf: string; account: string },
): Promise<void> {
  await api.db.cashSnapshot.create({
    data: {
      ownerId,
      businessId: f.businessId ?? null,
      personal: f.businessId === undefined,
      scope: f.businessId === undefined ? "personal" : `business:${f.businessId}`,
      amountMinor: f.amount,
      currency: f.currency,
      asOf: new Date(f.asOf),
      accountId: f.account,
      externalId: `manual:${f.account}:${f.asOf.slice(0, 10)}`,
      dataClass: "manual",
      sourceType: "MANUAL",
    },
  });
}

export async function createCommitmentsWorld(): Promise<TCommitmentsWorld> {
  const api = await createTestApi({ clock: fixedClock(WORLD_NOW), env: { FX_SOURCE: "mock" } });
  const { ownerId } = await staticOwner(api);
  await api.db.owner.update({ where: { id: ownerId }, data: { baseCurrency: "EUR", timezone: "UTC" } });
  const atlas = (await seedBusiness(api, { name: "Atlas", currency: "EUR" })).id;
  const beacon = (await seedBusiness(api, { name: "Beacon", currency: "USD" })).id;
  const web = (await seedProject(api, atlas, { name: "Web" })).id;
  const app = (await seedProject(api, atlas, { name: "App" })).id;
  const ids: Record<string, string> = {};
  const event = (name: string, f: TEventRow) =>
    insertEvent(api, ownerId, { description: name, ...f }).then((id) => (ids[name] = id));

  // Cash.
  const cash = (f: Parameters<typeof snapshot>[2]) => snapshot(api, ownerId, f);
  await cash({ businessId: atlas, amount: 50_000n, currency: "EUR", asOf: "2027-06-01T08:00:00Z", account: "a1" });
  await cash({ businessId: atlas, amount: 100_000n, currency: "EUR", asOf: "2027-06-14T08:00:00Z", account: "a1" });
  await cash({ businessId: atlas, amount: 10_000n, currency: "USD", asOf: "2027-06-10T08:00:00Z", account: "a2" });
  await cash({ businessId: beacon, amount: 20_000n, currency: "EUR", asOf: "2027-06-12T08:00:00Z", account: "b1" });
  await cash({ amount: 5_000n, currency: "EUR", asOf: "2027-06-13T08:00:00Z", account: "p1" });

  // Reservations.
  await seedReservation(api, { business_id: atlas, amount_minor: 5_000 });
  const partial = await seedReservation(api, { business_id: atlas, amount_minor: 3_000 });
  createdData(
    await api.call("POST", `/v1/budget-reservations/${partial.id}/release`, { body: { amount_minor: 1_000 } }),
    "a release",
  );
  await seedReservation(api, { project_id: web, amount_minor: 1_500 });
  const expired = await seedReservation(api, { business_id: atlas, amount_minor: 7_000 });
  await api.db.budgetReservation.update({ where: { id: expired.id }, data: { expiresOn: new Date("2027-06-14T00:00:00Z") } });
  const released = await seedReservation(api, { business_id: atlas, amount_minor: 9_000 });
  createdData(await api.call("POST", `/v1/budget-reservations/${released.id}/release`, { body: {} }), "a release");

  // Subscriptions.
  const sub = async (name: string, body: Record<string, unknown>) =>
    (ids[name] = (await seedSubscription(api, { name, ...body } as never)).id);
  await sub("S-month", {
    business_id: atlas,
    amount_minor: 999,
    currency: "EUR",
    billing_interval: "month",
    next_charge_on: "2027-01-31",
  });
  await sub("S-week", {
    business_id: atlas,
    amount_minor: 100,
    currency: "USD",
    billing_interval: "week",
    next_charge_on: "2027-06-15",
  });
  await sub("S-rec", {
    business_id: atlas,
    amount_minor: 5_000,
    currency: "EUR",
    billing_interval: "month",
    next_charge_on: "2027-06-20",
  });
  await sub("S-shared", {
    business_id: atlas,
    amount_minor: 1_000,
    currency: "EUR",
    billing_interval: "month",
    next_charge_on: "2027-07-01",
  });
  createdData(
    await api.call("PUT", `/v1/subscriptions/${ids["S-shared"]}/allocations`, {
      body: {
        allocations: [
          { project_id: web, share_bps: 3_333 },
          { project_id: app, share_bps: 6_667 },
        ],
      },
    }),
    "allocations",
  );
  await sub("S-web", {
    project_id: web,
    amount_minor: 300,
    currency: "EUR",
    billing_interval: "quarter",
    next_charge_on: "2027-06-16",
  });
  await sub("S-paused", {
    business_id: atlas,
    amount_minor: 777,
    currency: "EUR",
    billing_interval: "week",
    next_charge_on: "2027-06-15",
  });
  createdData(await api.call("PATCH", `/v1/subscriptions/${ids["S-paused"]}`, { body: { status: "paused" } }), "a pause");

  // Planned events.
  await event("P-overdue", { businessId: atlas, type: "planned_expense", state: "planned", amount: 1_000n, on: "2027-06-01" });
  await event("P-rent", { businessId: atlas, type: "planned_expense", state: "planned", amount: 20_000n, on: "2027-06-20" });
  await event("P-web", {
    businessId: atlas,
    projectId: web,
    type: "planned_expense",
    state: "planned",
    amount: 700n,
    on: "2027-06-18",
  });
  await event("S-rec first charge", {
    businessId: atlas,
    type: "recurring_expense",
    state: "planned",
    amount: 5_000n,
    on: "2027-06-20",
    subscriptionId: ids["S-rec"],
  });
  await event("P-later", { businessId: atlas, type: "planned_expense", state: "planned", amount: 500n, on: "2027-07-20" });
  await event("P-deal", { businessId: atlas, type: "revenue", state: "planned", amount: 30_000n, on: "2027-07-01" });
  const fulfiller = await event("paid", { businessId: atlas, type: "expense", amount: 0n, on: "2027-02-01" });
  await event("P-fulfilled", {
    businessId: atlas,
    type: "planned_expense",
    state: "planned",
    amount: 4_000n,
    on: "2027-06-25",
    fulfilledBy: fulfiller,
  });
  await event("P-voided", {
    businessId: atlas,
    type: "planned_expense",
    state: "planned",
    status: "voided",
    amount: 6_000n,
    on: "2027-06-26",
  });
  await event("P-home", { personal: true, type: "planned_expense", state: "planned", amount: 400n, on: "2027-06-17" });

  // Actuals.
  await event("sale", { businessId: atlas, type: "revenue", amount: 90_000n, on: "2027-05-01" });
  await event("refund in", { businessId: atlas, type: "refund", direction: "in", amount: 450n, on: "2027-05-25" });
  await event("servers", { businessId: atlas, type: "expense", amount: 45_000n, on: "2027-04-01" });
  await event("ads", { businessId: atlas, type: "ad_spend", amount: 9_000n, on: "2027-06-15" });
  await event("tooling", { businessId: atlas, type: "recurring_expense", amount: 18_000n, on: "2027-05-15" });
  await event("refund out", { businessId: atlas, type: "refund", direction: "out", amount: 900n, on: "2027-05-20" });
  await event("old sale", { businessId: atlas, type: "revenue", amount: 70_000n, on: "2027-03-17" });
  await event("voided", { businessId: atlas, type: "expense", status: "voided", amount: 11_000n, on: "2027-05-02" });
  await event("reconciled", { businessId: atlas, type: "expense", reconciled: true, amount: 12_000n, on: "2027-05-03" });
  await event("beacon costs", { businessId: beacon, type: "expense", amount: 27_000n, on: "2027-06-01" });

  return { api, ownerId, atlas, beacon, web, app, ids };
}

/** A fresh id no owner has. */
export const UNKNOWN_ID = randomUUID();
