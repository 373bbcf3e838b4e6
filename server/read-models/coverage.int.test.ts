// K9 and GET /v1/coverage on both engines: each source kind at exactly 24 h, 72 h and 7 days
// (and a millisecond either side, and in the future), the domains each source feeds, best
// source per domain, worst scope and worst domain upwards, tenant isolation and access.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApi, type TTestApi } from "../../test/helpers/api";
import { expectApiError } from "../../test/helpers/api-error";
import { businessGrant, seedAgent, seedBusiness, seedIntegration, seedOwner, staticOwner } from "../../test/helpers/seed";
import { fixedClock } from "../shared/clock";
import { envelopeCoverage, HOUR_MS, sourceStatus } from "./coverage";
import { readOwnerDay } from "./period";

const T = new Date("2026-06-10T12:00:00.000Z");
const clock = fixedClock(T);
let api: TTestApi;
let ownerId: string;

const DAY = 24 * HOUR_MS;
/** Clock offsets from the source time and the status each tier gives there. */
const AGES: Array<[label: string, offsetMs: number, live: string, periodic: string, entries: string]> = [
  ["future (1 h ahead)", -HOUR_MS, "accurate", "mostly_covered", "incomplete"],
  ["0", 0, "accurate", "mostly_covered", "incomplete"],
  ["24 h − 1 ms", DAY - 1, "accurate", "mostly_covered", "incomplete"],
  ["exactly 24 h", DAY, "mostly_covered", "incomplete", "incomplete"],
  ["72 h − 1 ms", 3 * DAY - 1, "mostly_covered", "incomplete", "incomplete"],
  ["exactly 72 h", 3 * DAY, "incomplete", "incomplete", "incomplete"],
  ["exactly 7 days", 7 * DAY, "incomplete", "incomplete", "incomplete"],
  ["7 days + 1 ms", 7 * DAY + 1, "missing", "missing", "missing"],
];

let snapshotCount = 0;
async function snapshot(fields: {
  businessId?: string;
  personal?: boolean;
  real: boolean;
  asOf: Date;
  owner?: string;
  integrationId?: string;
}) {
  await api.db.cashSnapshot.create({
    data: {
      ownerId: fields.owner ?? ownerId,
      businessId: fields.businessId ?? null,
      personal: fields.personal ?? false,
      scope: fields.personal ? "personal" : `business:${fields.businessId}`,
      amountMinor: 1000n,
      currency: "EUR",
      asOf: fields.asOf,
      accountId: "main",
      externalId: `snap-${++snapshotCount}`,
      dataClass: fields.real ? "real" : "manual",
      sourceType: fields.real ? "BANK_API" : "MANUAL",
      integrationId: fields.integrationId ?? null,
    },
  });
}

async function confirmedImport(businessId: string, confirmedAt: Date) {
  await api.db.import.create({
    data: {
      ownerId,
      businessId,
      preset: "generic",
      mapping: {},
      settings: {},
      fileBytes: 10,
      totalRows: 1,
      listedRows: 1,
      summary: {},
      proposals: [],
      status: "confirmed",
      expiresAt: new Date(confirmedAt.getTime() + DAY),
      confirmedAt,
    },
  });
}

async function entry(fields: {
  businessId?: string;
  personal?: boolean;
  type: string;
  source?: string;
  createdAt: Date;
  integrationId?: string;
  direction?: string;
}) {
  await api.db.financialEvent.create({
    data: {
      ownerId,
      businessId: fields.businessId ?? null,
      personal: fields.personal ?? false,
      type: fields.type,
      state: "actual",
      amountMinor: 100n,
      currency: "EUR",
      baseAmountMinor: 100n,
      baseCurrency: "EUR",
      occurredOn: new Date("2026-06-01T00:00:00Z"),
      sourceType: fields.source ?? "MANUAL",
      integrationId: fields.integrationId ?? null,
      externalId: fields.integrationId ? randomUUID() : null,
      direction: fields.direction ?? null,
      createdAt: fields.createdAt,
    },
  });
}

async function coverage() {
  const response = await api.call("GET", "/v1/coverage");
  expect(response.status, response.text).toBe(200);
  return response.body.data;
}

const businessOf = (data: any, id: string) => data.businesses.find((b: any) => b.business_id === id);

beforeAll(async () => {
  api = await createTestApi({ clock });
  ownerId = (await staticOwner(api)).ownerId;
});
afterAll(async () => api?.close());

describe("sourceStatus: the boundaries", () => {
  it.each(AGES)("%s", (_label, offset, live, periodic, entries) => {
    const now = new Date(T.getTime() + offset);
    expect(sourceStatus("live", T, now)).toBe(live);
    expect(sourceStatus("periodic", T, now)).toBe(periodic);
    expect(sourceStatus("entries", T, now)).toBe(entries);
  });
});

describe("GET /v1/coverage: each source kind at the boundaries", () => {
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    for (const kind of ["real", "manualSnapshot", "integration", "import", "entries"]) {
      ids[kind] = (await seedBusiness(api, { name: `cov-${kind}` })).id;
    }
    await snapshot({ businessId: ids.real!, real: true, asOf: T });
    await snapshot({ businessId: ids.manualSnapshot!, real: false, asOf: T });
    await seedIntegration(api.db, { ownerId, provider: "payments_a", businessId: ids.integration!, lastSyncAt: T });
    await confirmedImport(ids.import!, T);
    await entry({ businessId: ids.entries!, type: "revenue", createdAt: T });
  });

  it.each(AGES)("at %s", async (_label, offset, live, periodic, entries) => {
    clock.set(new Date(T.getTime() + offset));
    const data = await coverage();
    expect(data.as_of).toBe(new Date(T.getTime() + offset).toISOString());
    expect(businessOf(data, ids.real!).domains.cash.status).toBe(live);
    expect(businessOf(data, ids.manualSnapshot!).domains.cash.status).toBe(periodic);
    expect(businessOf(data, ids.integration!).domains.revenue.status).toBe(live);
    expect(businessOf(data, ids.import!).domains.cash.status).toBe(periodic);
    expect(businessOf(data, ids.import!).domains.expenses.status).toBe(periodic);
    expect(businessOf(data, ids.entries!).domains.revenue.status).toBe(entries);
    // A business's overall: its worst domain with a source (the others have none).
    expect(businessOf(data, ids.real!).overall).toBe(live);
    expect(businessOf(data, ids.real!).domains.revenue).toEqual({ status: "missing", last_data_at: null, sources: [] });
  });

  afterAll(async () => {
    clock.set(T);
    await api.db.business.deleteMany({ where: { id: { in: Object.values(ids) } } });
    await api.db.cashSnapshot.deleteMany({ where: { ownerId } });
    await api.db.import.deleteMany({ where: { ownerId } });
    await api.db.integration.deleteMany({ where: { ownerId } });
    await api.db.financialEvent.deleteMany({ where: { ownerId } });
  });
});

describe("GET /v1/coverage: domains, best source, worst upwards", () => {
  it("a new owner: everything missing, no sources", async () => {
    const fresh = await seedOwner(api);
    const response = await api.call("GET", "/v1/coverage", { token: fresh.token });
    expect(response.status).toBe(200);
    const empty = { status: "missing", last_data_at: null, sources: [] };
    expect(response.body.data).toEqual({
      as_of: T.toISOString(),
      overall: "missing",
      domains: { cash: empty, revenue: empty, ads: empty, billing: empty, expenses: empty },
      businesses: [],
      personal: { overall: "missing", domains: { cash: empty, revenue: empty, expenses: empty } },
    });
  });

  it("providers feed their domains; a domain takes its best source; owner level takes the worst scope", async () => {
    clock.set(T);
    const shop = (await seedBusiness(api, { name: "Shop" })).id;
    const studio = (await seedBusiness(api, { name: "Studio" })).id;
    const hours = (h: number) => new Date(T.getTime() - h * HOUR_MS);
    // Shop: billing_a 1 h ago (revenue + billing: accurate), social_ads 30 h (ads: mostly_covered),
    // manual revenue 1 h (incomplete, but the integration is better), a real snapshot 100 h (cash: incomplete)
    // and a manual one 2 h (mostly_covered: the best), no expenses source.
    const billing = await seedIntegration(api.db, { ownerId, provider: "billing_a", businessId: shop, lastSyncAt: hours(1) });
    const ads = await seedIntegration(api.db, { ownerId, provider: "social_ads", businessId: shop, lastSyncAt: hours(30) });
    await seedIntegration(api.db, {
      ownerId,
      provider: "search_ads",
      businessId: shop,
      lastSyncAt: hours(1),
      status: "disconnected",
    });
    await entry({ businessId: shop, type: "revenue", createdAt: hours(1) });
    await snapshot({ businessId: shop, real: true, asOf: hours(100) });
    await snapshot({ businessId: shop, real: false, asOf: hours(2) });
    // Studio: a generic webhook that sent revenue and an expense, synced 80 h ago (incomplete);
    // a generic one that sent only an agent action feeds nothing; manual expenses 1 h (incomplete).
    const generic = await seedIntegration(api.db, { ownerId, provider: "generic", businessId: studio, lastSyncAt: hours(80) });
    await entry({ businessId: studio, type: "revenue", source: "PAYMENTS_API", integrationId: generic, createdAt: hours(80) });
    await entry({
      businessId: studio,
      type: "refund",
      direction: "out",
      source: "PAYMENTS_API",
      integrationId: generic,
      createdAt: hours(80),
    });
    const quiet = await seedIntegration(api.db, { ownerId, provider: "generic", businessId: studio, lastSyncAt: hours(1) });
    await entry({ businessId: studio, type: "agent_action", source: "PAYMENTS_API", integrationId: quiet, createdAt: hours(1) });
    await entry({ businessId: studio, type: "expense", createdAt: hours(1) });
    // Personal: a manual snapshot 10 days ago (missing) and manual revenue now.
    await snapshot({ personal: true, real: false, asOf: hours(240) });
    await entry({ personal: true, type: "revenue", createdAt: T });
    // Another owner's fresh sources never show.
    const bob = await seedOwner(api);
    await snapshot({ owner: bob.ownerId, personal: true, real: true, asOf: T });

    const data = await coverage();
    const s = businessOf(data, shop);
    expect(s.domains.revenue.status).toBe("accurate");
    expect(s.domains.revenue.sources).toEqual(
      expect.arrayContaining([
        { kind: "integration", integration_id: billing, provider: "billing_a", at: hours(1).toISOString(), status: "accurate" },
        { kind: "manual", integration_id: null, provider: null, at: hours(1).toISOString(), status: "incomplete" },
      ]),
    );
    expect(s.domains.billing.status).toBe("accurate");
    expect(s.domains.ads).toEqual({
      status: "mostly_covered",
      last_data_at: hours(30).toISOString(),
      sources: [
        {
          kind: "integration",
          integration_id: ads,
          provider: "social_ads",
          at: hours(30).toISOString(),
          status: "mostly_covered",
        },
      ],
    });
    expect(s.domains.cash.status).toBe("mostly_covered");
    expect(s.domains.cash.last_data_at).toBe(hours(2).toISOString());
    expect(s.domains.expenses.sources).toEqual([]);
    expect(s.overall).toBe("mostly_covered");

    const st = businessOf(data, studio);
    expect(st.domains.revenue.status).toBe("incomplete");
    expect(st.domains.revenue.sources.map((x: any) => x.integration_id)).toEqual([generic]);
    expect(st.domains.expenses.status).toBe("incomplete");
    expect(st.domains.expenses.sources.map((x: any) => x.kind).sort()).toEqual(["integration", "manual"]);
    expect(st.domains.ads.sources).toEqual([]);
    expect(st.overall).toBe("incomplete");

    expect(data.personal.domains.cash.status).toBe("missing");
    expect(data.personal.domains.revenue.status).toBe("incomplete");
    expect(data.personal.overall).toBe("missing");

    // Owner level: each domain the worst scope with a source; overall the worst domain with a source.
    expect(data.domains.revenue.status).toBe("incomplete"); // shop accurate, studio and personal incomplete
    expect(data.domains.cash.status).toBe("missing"); // personal's 10-day-old snapshot
    expect(data.domains.ads.status).toBe("mostly_covered");
    expect(data.domains.billing.status).toBe("accurate");
    expect(data.domains.expenses.status).toBe("incomplete");
    expect(data.overall).toBe("missing");
    expect(JSON.stringify(data)).not.toContain(bob.ownerId);

    // The envelope helper: only the read model's domains; overall the worst of those with a source.
    const day = await readOwnerDay(api.db, ownerId, clock);
    expect(await envelopeCoverage(api.db, day, { kind: "business", businessId: shop }, ["revenue", "ads", "expenses"])).toEqual({
      overall: "mostly_covered",
      revenue: "accurate",
      ads: "mostly_covered",
      expenses: "missing",
    });
    expect(await envelopeCoverage(api.db, day, { kind: "personal" }, ["revenue", "expenses"])).toEqual({
      overall: "incomplete",
      revenue: "incomplete",
      expenses: "missing",
    });
    expect(await envelopeCoverage(api.db, day, { kind: "owner" }, ["cash", "billing"])).toEqual({
      overall: "missing",
      cash: "missing",
      billing: "accurate",
    });

    // An integration of no business counts at owner level only.
    const loose = await seedIntegration(api.db, { ownerId, provider: "payments_a", businessId: null, lastSyncAt: hours(200) });
    const after = await coverage();
    expect(after.domains.revenue.status).toBe("missing");
    expect(after.domains.revenue.sources.map((x: any) => x.integration_id)).toContain(loose);
    expect(businessOf(after, shop).domains.revenue.status).toBe("accurate");
  });
});

describe("GET /v1/coverage: access", () => {
  it("an agent without finances:observe on * gets 403 scope_denied (pinned-wave3 §2.1); no bearer 401", async () => {
    const shop = (await seedBusiness(api, { name: "Agent's" })).id;
    const agent = await seedAgent(api, { grants: [businessGrant(shop, { scope: "finances:observe" })] });
    expectApiError(await api.call("GET", "/v1/coverage", { token: agent.token }), 403, "scope_denied");
    expectApiError(await api.call("GET", "/v1/coverage", { token: null }), 401, "unauthenticated");
  });
});
