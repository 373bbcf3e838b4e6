// Agent economics (pinned-wave2 §3.3) on both engines, with real agent tokens: the access matrix
// of the three operations (the owner, the agent itself, another agent of the owner, another
// owner; `me` never taken for an id), and every figure equal to sums computed by hand from a
// seeded ledger: ad budget writes of every approval status (executed within limits, held and
// approved, held and rejected, held and waiting), changes planned, applied and failed, denials,
// decisions measured better, as expected and worse, pending and inconclusive, events attributed
// to the agent (voided, planned and other agents' ones left out); the period (created_at by its
// day in the owner's timezone, occurred_on), the business filter and the display currency.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApi, type TTestApi } from "../../test/helpers/api";
import { expectApiError } from "../../test/helpers/api-error";
import { createdData, seedAgent, seedIntegration, seedOwner, type TTestGrant } from "../../test/helpers/seed";
import { convertBetween } from "../fx/money";
import { ingestSignals } from "../ingest/ingest-service";
import { openOwnerSession } from "../sessions/session-service";
import { fixedClock } from "../shared/clock";

// Today is 2026-06-15 (UTC owner): the default period is 2026-05-17 .. 2026-06-15.
const clock = fixedClock("2026-06-15T12:00:00Z");
let api: TTestApi;

type TAgent = { id: string; token: string };
type TWorld = {
  ownerId: string;
  token: string;
  atlas: string;
  web: string;
  borealis: string;
  cygnus: string;
  lab: string;
  /** The agent whose economics are computed by hand. */
  ada: TAgent;
  /** Another agent of the owner, without grants. */
  bo: TAgent;
  /** Another owner and their agent. */
  zed: { token: string; agent: TAgent; business: string };
};
let w: TWorld;

const post = (path: string, body: object, token: string) => api.call("POST", path, { token, body });
const get = (path: string, token: string) => api.call("GET", path, { token });

async function seedWorld(): Promise<TWorld> {
  const owner = await api.db.owner.create({
    data: {
      plan: "business",
      email: `economics-${randomUUID()}@example.test`,
      baseCurrency: "EUR",
      baseCurrencyConfirmed: true,
      timezone: "UTC",
    },
  });
  const { token } = await openOwnerSession(api.db, { ownerId: owner.id, channel: "api" });
  const business = async (name: string) =>
    createdData(await post("/v1/businesses", { name, currency: "EUR" }, token), "a business").id as string;
  const atlas = await business("Atlas");
  const borealis = await business("Borealis");
  const cygnus = await business("Cygnus");
  const web = createdData(await post(`/v1/businesses/${atlas}/projects`, { name: "Web" }, token), "a project").id;
  const lab = createdData(await post(`/v1/businesses/${cygnus}/projects`, { name: "Lab" }, token), "a project").id;
  const atlasAds = await seedIntegration(api.db, { ownerId: owner.id, provider: "social_ads", businessId: atlas });
  const borealisAds = await seedIntegration(api.db, { ownerId: owner.id, provider: "search_ads", businessId: borealis });

  const grants: TTestGrant[] = [
    {
      scope: "ads",
      resource: `business:${atlas}`,
      level: "execute",
      daily_limit_minor: 100_00,
      currency: "EUR",
      over_limit: "approval",
    },
    { scope: "ads", resource: `business:${borealis}`, level: "recommend" },
  ];
  const ada = await seedAgent(api, { name: "Ada", grants }, token);
  const bo = await seedAgent(api, { name: "Bo" }, token);

  // Ad budget changes, each an approval: 1, 2, 4 within the 100.00 daily limit (30 + 60 + 0),
  // 3 over it (90 + 40) and held, then approved; 5 and 6 at recommend on Borealis, held (6 rejected).
  // A change counts its increase over the budget the service knows (pinned-wave3 §1.1): here the
  // platform first reports `previous` as the campaign's budget; 3's campaign has none known.
  const change = async (integration: string, previous: number | undefined, next: number, status: number) => {
    const campaign = `cmp-${randomUUID()}`;
    if (previous !== undefined) {
      await ingestSignals(api.db, owner.id, [
        {
          integration_id: integration,
          external_id: randomUUID(),
          code: "budget_change_applied",
          occurred_at: "2026-06-14T10:00:00.000Z",
          ref: { campaign_id: campaign },
          amount_minor: previous,
          currency: "EUR",
        },
      ]);
    }
    const response = await post(
      "/v1/ad-budget-changes",
      {
        integration_id: integration,
        campaign_id: campaign,
        ...(previous === undefined ? {} : { previous_daily_budget_minor: previous }),
        new_daily_budget_minor: next,
        currency: "EUR",
        reason: "ROAS review",
      },
      ada.token,
    );
    expect(response.status, response.text).toBe(status);
    return response.body.data;
  };
  const c1 = await change(atlasAds, 50_00, 80_00, 201);
  const c2 = await change(atlasAds, 80_00, 140_00, 201);
  const held3 = await change(atlasAds, undefined, 40_00, 202);
  const c4 = await change(atlasAds, 100_00, 20_00, 201);
  await change(borealisAds, 10_00, 25_00, 202);
  const held6 = await change(borealisAds, 10_00, 30_00, 202);
  expect((await post(`/v1/approvals/${held3.approval.id}/approve`, {}, token)).status).toBe(200);
  expect((await post(`/v1/approvals/${held6.approval.id}/reject`, {}, token)).status).toBe(200);
  const signal = (code: "budget_change_applied" | "budget_change_failed", id: string) => ({
    integration_id: atlasAds,
    external_id: randomUUID(),
    code,
    occurred_at: "2026-06-15T10:00:00.000Z",
    ref: { budget_change_id: id },
  });
  await ingestSignals(api.db, owner.id, [signal("budget_change_applied", c2.id), signal("budget_change_failed", c4.id)]);
  expect(c1.status).toBe("planned");

  // Four denials: an owner-only operation (no resource), decisions on personal, on Cygnus and on its project Lab.
  expect((await get("/v1/agents", ada.token)).status).toBe(403);
  for (const scope of [{ personal: true }, { business_id: cygnus }, { project_id: lab }]) {
    const denied = await post("/v1/agent-decisions", { ...scope, title: "Out of reach", reason: "testing" }, ada.token);
    expect(denied.status, denied.text).toBe(403);
  }

  // The owner's ledger the decisions are measured on (no agent):
  //   Borealis revenue 04-05 80.00 (E's window), 05-18 200.00 (A/D baseline), 05-22 450.00 (A/D window);
  //            expenses 05-19 100.00 (B baseline), 05-23 40.00 (B window).
  const money = async (kind: "revenues" | "expenses" | "planned-expenses", scope: object, on: string, amount: number) =>
    createdData(await post(`/v1/${kind}`, { ...scope, amount_minor: amount, currency: "EUR", occurred_on: on }, token), kind)
      .id as string;
  await money("revenues", { business_id: borealis }, "2026-04-05", 80_00);
  await money("revenues", { business_id: borealis }, "2026-05-18", 200_00);
  await money("revenues", { business_id: borealis }, "2026-05-22", 450_00);
  await money("expenses", { business_id: borealis }, "2026-05-19", 100_00);
  await money("expenses", { business_id: borealis }, "2026-05-23", 40_00);

  // Events attributed to Ada (the API cannot make an agent's expense yet, so agent_id is set here):
  // in: Atlas 06-10 500.00 (and 04-01 70.00, before the default period); out: Atlas 06-11 120.00,
  // Web 06-09 15.00, Borealis 06-12 30.00. Not counted: a voided one, a planned one; Bo's is Bo's.
  const attributed = [
    await money("revenues", { business_id: atlas }, "2026-06-10", 500_00),
    await money("revenues", { business_id: atlas }, "2026-04-01", 70_00),
    await money("expenses", { business_id: atlas }, "2026-06-11", 120_00),
    await money("expenses", { project_id: web }, "2026-06-09", 15_00),
    await money("expenses", { business_id: borealis }, "2026-06-12", 30_00),
  ];
  const voided = await money("expenses", { business_id: atlas }, "2026-06-10", 999_00);
  const planned = await money("planned-expenses", { business_id: atlas }, "2026-06-20", 50_00);
  await api.db.financialEvent.updateMany({ where: { id: { in: [...attributed, voided, planned] } }, data: { agentId: ada.id } });
  await api.db.financialEvent.update({ where: { id: voided }, data: { status: "voided" } });
  const bos = await money("revenues", { business_id: atlas }, "2026-06-10", 7_00);
  await api.db.financialEvent.update({ where: { id: bos }, data: { agentId: bo.id } });

  // Decisions (besides the four of the executed budget changes, today, net over 30 days: pending):
  const decide = async (body: object, as = ada.token) =>
    createdData(await post("/v1/agent-decisions", { reason: "weekly review", ...body }, as), "a decision");
  const revenue = (delta: number) => ({ metric: "revenue", delta_minor: delta, currency: "EUR", window_days: 7 });
  // A: revenue 200.00 → 450.00, +250.00 against +100.00 expected: better.
  await decide({ business_id: borealis, title: "A", occurred_on: "2026-05-20", expected: revenue(100_00) });
  // B: outflow 100.00 → 40.00, −60.00 against −100.00 expected: worse; worth +60.00.
  await decide({
    business_id: borealis,
    title: "B",
    occurred_on: "2026-05-20",
    expected: { metric: "outflow", delta_minor: -100_00, currency: "EUR", window_days: 7 },
  });
  // C: no expectation, net over 30 days (to 06-19): pending.
  await decide({ business_id: borealis, title: "C", occurred_on: "2026-05-20" });
  // D: +250.00 as expected.
  await decide({ business_id: borealis, title: "D", occurred_on: "2026-05-20", expected: revenue(250_00) });
  // E: before the default period; revenue 0 → 80.00 against +5.00: better.
  await decide({ business_id: borealis, title: "E", occurred_on: "2026-04-01", expected: revenue(5_00) });
  // F: recorded by the owner naming Ada, on Cygnus (no ads source): inconclusive.
  await decide(
    {
      agent_id: ada.id,
      business_id: cygnus,
      title: "F",
      occurred_on: "2026-05-21",
      expected: { metric: "ad_spend", delta_minor: -5_00, currency: "EUR", window_days: 7 },
    },
    token,
  );
  // G: Atlas revenue 0 → 0 against +10.00: worse, worth 0.
  await decide({ business_id: atlas, title: "G", occurred_on: "2026-06-01", expected: revenue(10_00) });

  // The database stamps created_at with its own clock: put Ada's approvals and changes on the
  // request clock's today, her denials early that day (UTC; the evening before in New York).
  await api.db.approval.updateMany({ where: { agentId: ada.id }, data: { createdAt: new Date("2026-06-15T09:00:00Z") } });
  await api.db.adBudgetChange.updateMany({ where: { agentId: ada.id }, data: { createdAt: new Date("2026-06-15T09:00:00Z") } });
  await api.db.auditEntry.updateMany({
    where: { ownerId: owner.id, actorId: ada.id, action: "access.denied" },
    data: { createdAt: new Date("2026-06-15T02:00:00Z") },
  });

  const zedOwner = await seedOwner(api);
  const zedBusiness = createdData(await post("/v1/businesses", { name: "Zed Co", currency: "EUR" }, zedOwner.token), "z").id;
  const zedAgent = await seedAgent(
    api,
    { name: "Zed's", grants: [{ scope: "ads", resource: "*", level: "execute" }] },
    zedOwner.token,
  );
  return {
    ownerId: owner.id,
    token,
    atlas,
    web,
    borealis,
    cygnus,
    lab,
    ada,
    bo,
    zed: { token: zedOwner.token, agent: zedAgent, business: zedBusiness },
  };
}

beforeAll(async () => {
  api = await createTestApi({ clock });
  w = await seedWorld();
});
afterAll(async () => api?.close());

async function ok(path: string, token = w.token) {
  const response = await get(path, token);
  expect(response.status, response.text).toBe(200);
  return response.body;
}

const ZERO = {
  writes: { auto_approved: 0, pending: 0, approved: 0, rejected: 0, denied: 0, executed: 0 },
  committed_minor: 0,
  ad_budget: { changes: 0, planned: 0, applied: 0, failed: 0, daily_increase_minor: 0 },
  attributed: { in_minor: 0, out_minor: 0 },
  decisions: { count: 0, pending: 0, measured: 0, inconclusive: 0, better: 0, as_expected: 0, worse: 0, value_minor: 0 },
  roi: null,
};

// Ada over the default period, by hand:
//   writes: auto_approved 1, 2, 4; approved 3; pending 5; rejected 6; executed 4; denied 4.
//   committed 30.00 + 60.00 + 0 + 40.00 = 130.00.
//   changes 1–4: planned 1, 3; applied 2; failed 4; daily increase +30.00 + 60.00 + 40.00 (3's budget was
//   unknown: its whole new budget counted; 4 failed).
//   attributed in 500.00; out 120.00 + 15.00 + 30.00 = 165.00.
//   decisions A B C D F G + 4 budget ones = 10: pending C + 4; measured A B D G; inconclusive F;
//   better A, as_expected D, worse B G; value 250.00 + 60.00 + 250.00 + 0 = 560.00.
//   roi (560.00 − 130.00) / 130.00 = 3.3077.
// Bo's only figure: his own 7.00 revenue.
const BO = { ...ZERO, attributed: { in_minor: 7_00, out_minor: 0 } };

const ADA = {
  writes: { auto_approved: 3, pending: 1, approved: 1, rejected: 1, denied: 4, executed: 4 },
  committed_minor: 130_00,
  ad_budget: { changes: 4, planned: 2, applied: 1, failed: 1, daily_increase_minor: 130_00 },
  attributed: { in_minor: 500_00, out_minor: 165_00 },
  decisions: { count: 10, pending: 5, measured: 4, inconclusive: 1, better: 1, as_expected: 1, worse: 2, value_minor: 560_00 },
  roi: 3.3077,
};

describe("figures on a hand-computed ledger", () => {
  it("the owner's list: every agent newest first, each equal to its sums, totals over them", async () => {
    const body = await ok("/v1/agents/economics");
    expect(body.data).toMatchObject({
      currency: "EUR",
      base_currency: "EUR",
      from: "2026-05-17",
      to: "2026-06-15",
      business_id: null,
    });
    expect(body.data.agents).toEqual([
      { agent_id: w.bo.id, name: "Bo", status: "active", ...BO },
      { agent_id: w.ada.id, name: "Ada", status: "active", ...ADA },
    ]);
    expect(body.data.totals).toEqual({ ...ADA, attributed: { in_minor: 507_00, out_minor: 165_00 } });
    expect(body.fx).toMatchObject({ base_currency: "EUR", display_currency: "EUR" });
  });

  it("one agent's, by id and as `me`, equal its row of the list", async () => {
    const expected = {
      currency: "EUR",
      base_currency: "EUR",
      from: "2026-05-17",
      to: "2026-06-15",
      business_id: null,
      agent_id: w.ada.id,
      name: "Ada",
      status: "active",
      ...ADA,
    };
    expect((await ok(`/v1/agents/${w.ada.id}/economics`)).data).toEqual(expected);
    expect((await ok(`/v1/agents/${w.ada.id}/economics`, w.ada.token)).data).toEqual(expected);
    expect((await ok("/v1/agents/me/economics", w.ada.token)).data).toEqual(expected);
  });

  it("stores the closed outcomes it counted, as a review would", async () => {
    const stored = await api.db.decisionOutcome.findMany({
      where: { ownerId: w.ownerId },
      include: { decision: { select: { title: true } } },
    });
    const byTitle = Object.fromEntries(stored.map((o) => [o.decision.title, [o.status, o.verdict, o.deltaMinor]]));
    expect(byTitle).toEqual({
      A: ["measured", "better", 250_00n],
      B: ["measured", "worse", -60_00n],
      D: ["measured", "as_expected", 250_00n],
      F: ["inconclusive", null, 0n],
      G: ["measured", "worse", 0n],
    });
  });

  it("period: a longer one adds decision E (better, +80.00) and the April revenue", async () => {
    const body = await ok(`/v1/agents/${w.ada.id}/economics?from=2026-03-17&to=2026-06-15`);
    expect(body.data).toMatchObject({
      from: "2026-03-17",
      ...ADA,
      attributed: { in_minor: 570_00, out_minor: 165_00 },
      decisions: {
        count: 11,
        pending: 5,
        measured: 5,
        inconclusive: 1,
        better: 2,
        as_expected: 1,
        worse: 2,
        value_minor: 640_00,
      },
      roi: 3.9231, // (640 − 130) / 130
    });
  });

  it("period: approvals, changes and denials by their created_at day, events and decisions by occurred_on", async () => {
    // Up to yesterday: none of today's writes, changes or denials, nor the budget decisions.
    const before = (await ok(`/v1/agents/${w.ada.id}/economics?to=2026-06-14`)).data;
    expect(before).toMatchObject({
      from: "2026-05-16",
      to: "2026-06-14",
      writes: ZERO.writes,
      committed_minor: 0,
      ad_budget: ZERO.ad_budget,
      attributed: ADA.attributed,
      decisions: { count: 6, pending: 1, measured: 4, inconclusive: 1, value_minor: 560_00 },
      roi: null,
    });
    // Today only: the writes, changes, denials and the four budget decisions; no event.
    const today = (await ok(`/v1/agents/${w.ada.id}/economics?from=2026-06-15&to=2026-06-15`)).data;
    expect(today).toMatchObject({
      writes: ADA.writes,
      committed_minor: 130_00,
      ad_budget: ADA.ad_budget,
      attributed: { in_minor: 0, out_minor: 0 },
      decisions: { count: 4, pending: 4, measured: 0, value_minor: 0 },
      roi: -1,
    });
  });

  it("period: a created_at counts on its day in the owner's timezone", async () => {
    // 02:00 UTC on the 15th is the 14th in New York: the denials move to that day.
    await api.db.owner.update({ where: { id: w.ownerId }, data: { timezone: "America/New_York" } });
    try {
      const day = (await ok(`/v1/agents/${w.ada.id}/economics?from=2026-06-14&to=2026-06-14`)).data;
      expect(day.writes).toEqual({ ...ZERO.writes, denied: 4 });
      expect(day.ad_budget.changes).toBe(0);
    } finally {
      await api.db.owner.update({ where: { id: w.ownerId }, data: { timezone: "UTC" } });
    }
    const utc = (await ok(`/v1/agents/${w.ada.id}/economics?from=2026-06-14&to=2026-06-14`)).data;
    expect(utc.writes.denied).toBe(0);
  });

  it("business_id restricts every figure (a business's projects included)", async () => {
    const atlas = (await ok(`/v1/agents/${w.ada.id}/economics?business_id=${w.atlas}`)).data;
    expect(atlas).toMatchObject({
      business_id: w.atlas,
      writes: { auto_approved: 3, pending: 0, approved: 1, rejected: 0, denied: 0, executed: 4 },
      committed_minor: 130_00,
      ad_budget: ADA.ad_budget,
      attributed: { in_minor: 500_00, out_minor: 135_00 },
      decisions: { count: 5, pending: 4, measured: 1, inconclusive: 0, better: 0, as_expected: 0, worse: 1, value_minor: 0 },
      roi: -1,
    });
    const borealis = (await ok(`/v1/agents/${w.ada.id}/economics?business_id=${w.borealis}`)).data;
    expect(borealis).toMatchObject({
      writes: { auto_approved: 0, pending: 1, approved: 0, rejected: 1, denied: 0, executed: 0 },
      committed_minor: 0,
      ad_budget: ZERO.ad_budget,
      attributed: { in_minor: 0, out_minor: 30_00 },
      decisions: { count: 4, pending: 1, measured: 3, inconclusive: 0, better: 1, as_expected: 1, worse: 1, value_minor: 560_00 },
      roi: null,
    });
    // Cygnus: the denials on it and its project Lab, and decision F.
    const cygnus = (await ok(`/v1/agents/economics?business_id=${w.cygnus}`)).data;
    expect(cygnus.agents.find((a: { agent_id: string }) => a.agent_id === w.ada.id)).toMatchObject({
      writes: { ...ZERO.writes, denied: 2 },
      decisions: { count: 1, inconclusive: 1, pending: 0 },
      attributed: ZERO.attributed,
    });
    expect(cygnus.totals.writes.denied).toBe(2);
  });

  it("display_currency: each amount converted once from the base, roi from the shown amounts", async () => {
    const summary = await ok(`/v1/businesses/${w.borealis}/financial-summary?display_currency=USD`);
    const rate = summary.data.fx_used.find((u: { from: string; to: string }) => u.from === "EUR" && u.to === "USD").rate;
    const usd = (minor: number) => Number(convertBetween(BigInt(minor), "EUR", "USD", rate));
    const body = await ok(`/v1/agents/${w.ada.id}/economics?display_currency=USD`);
    expect(body.data).toMatchObject({
      currency: "USD",
      base_currency: "EUR",
      writes: ADA.writes,
      committed_minor: usd(130_00),
      ad_budget: { ...ADA.ad_budget, daily_increase_minor: usd(130_00) },
      attributed: { in_minor: usd(500_00), out_minor: usd(165_00) },
      decisions: { ...ADA.decisions, value_minor: usd(560_00) },
    });
    const shownRoi = Math.round(((usd(560_00) - usd(130_00)) / usd(130_00)) * 10_000) / 10_000;
    expect(body.data.roi).toBeCloseTo(shownRoi, 4);
    expect(body.fx).toMatchObject({ base_currency: "EUR", display_currency: "USD", estimated_share: 1 });
    const list = await ok("/v1/agents/economics?display_currency=USD");
    expect(list.data.totals.committed_minor).toBe(usd(130_00));
    expect(list.data.agents[1].attributed.in_minor).toBe(usd(500_00));
  });

  it("refuses a bad period or display currency (400)", async () => {
    for (const query of [
      "from=2026-06-15&to=2026-06-01",
      "from=2025-01-01&to=2026-06-15",
      "display_currency=usd",
      "from=06-01",
    ]) {
      const response = await get(`/v1/agents/economics?${query}`, w.token);
      expectApiError(response, 400, "validation_error", { what: query });
    }
    expectApiError(await get("/v1/agents/not-a-uuid/economics", w.token), 400, "validation_error", { issue: "id" });
  });
});

describe("who may read what", () => {
  it("GET /v1/agents/economics: the owner sees every agent; an agent a list holding only itself", async () => {
    const owner = await ok("/v1/agents/economics");
    expect(owner.data.agents.map((a: { agent_id: string }) => a.agent_id)).toEqual([w.bo.id, w.ada.id]);
    const ada = await ok("/v1/agents/economics", w.ada.token);
    expect(ada.data.agents.map((a: { agent_id: string }) => a.agent_id)).toEqual([w.ada.id]);
    expect(ada.data.totals).toEqual(ADA);
    const bo = await ok("/v1/agents/economics", w.bo.token);
    expect(bo.data.agents).toEqual([{ agent_id: w.bo.id, name: "Bo", status: "active", ...BO }]);
    // Another owner sees their own agent, never these.
    const zed = await ok("/v1/agents/economics", w.zed.token);
    expect(zed.data.agents).toEqual([{ agent_id: w.zed.agent.id, name: "Zed's", status: "active", ...ZERO }]);
    expect(zed.data.totals).toEqual(ZERO);
    const zeds = await ok("/v1/agents/economics", w.zed.agent.token);
    expect(zeds.data.agents.map((a: { agent_id: string }) => a.agent_id)).toEqual([w.zed.agent.id]);
  });

  it("GET /v1/agents/{id}/economics: another agent of the owner gets 403 scope_denied, audited; another owner 404", async () => {
    const denied = await get(`/v1/agents/${w.ada.id}/economics`, w.bo.token);
    expectApiError(denied, 403, "scope_denied", { details: { required: "own_record", resource: `agent:${w.ada.id}` } });
    const audit = await api.db.auditEntry.findFirst({
      where: { ownerId: w.ownerId, action: "access.denied", actorId: w.bo.id },
      orderBy: { createdAt: "desc" },
    });
    expect(audit?.details).toMatchObject({ code: "scope_denied", required: "own_record", operation: "agentEconomics.get" });
    expect((await ok(`/v1/agents/${w.bo.id}/economics`, w.bo.token)).data.agent_id).toBe(w.bo.id);
    // Another owner, or their agent: Ada is not theirs (404); an unknown agent alike.
    for (const token of [w.zed.token, w.zed.agent.token]) {
      expectApiError(await get(`/v1/agents/${w.ada.id}/economics`, token), 404, "not_found");
    }
    expectApiError(await get(`/v1/agents/${randomUUID()}/economics`, w.token), 404, "not_found");
    expectApiError(await get(`/v1/agents/${randomUUID()}/economics`, w.ada.token), 404, "not_found");
  });

  it("GET /v1/agents/me/economics: the calling agent's (me is never an id); the owner gets 404", async () => {
    expect((await ok("/v1/agents/me/economics", w.bo.token)).data.agent_id).toBe(w.bo.id);
    expect((await ok("/v1/agents/me/economics", w.zed.agent.token)).data.agent_id).toBe(w.zed.agent.id);
    expectApiError(await get("/v1/agents/me/economics", w.token), 404, "not_found");
    expectApiError(await get("/v1/agents/me/economics", w.zed.token), 404, "not_found");
    // And the literal economics is never an agent's id either.
    expect((await ok("/v1/agents/economics")).data.agents).toHaveLength(2);
  });

  it("business_id: an agent needs a grant covering it (403, audited); unknown or another owner's is 404 for everyone", async () => {
    expect((await ok(`/v1/agents/me/economics?business_id=${w.atlas}`, w.ada.token)).data.business_id).toBe(w.atlas);
    expect((await ok(`/v1/agents/economics?business_id=${w.borealis}`, w.ada.token)).data.business_id).toBe(w.borealis);
    for (const path of [
      `/v1/agents/me/economics?business_id=${w.cygnus}`,
      `/v1/agents/economics?business_id=${w.cygnus}`,
      `/v1/agents/${w.ada.id}/economics?business_id=${w.cygnus}`,
    ]) {
      expectApiError(await get(path, w.ada.token), 403, "scope_denied", {
        details: { required_scope: "any", resource: `business:${w.cygnus}` },
        what: path,
      });
    }
    expectApiError(await get(`/v1/agents/economics?business_id=${w.cygnus}`, w.bo.token), 403, "scope_denied");
    for (const business of [w.zed.business, randomUUID()]) {
      for (const token of [w.token, w.ada.token]) {
        expectApiError(await get(`/v1/agents/economics?business_id=${business}`, token), 404, "not_found");
      }
    }
    // 404 before 403: another agent's economics on an unknown business is 404.
    expectApiError(await get(`/v1/agents/${w.ada.id}/economics?business_id=${randomUUID()}`, w.bo.token), 404, "not_found");
  });

  it("without a bearer: 401", async () => {
    const response = await api.call("GET", "/v1/agents/economics", { token: null });
    expectApiError(response, 401, "unauthenticated");
  });
});

describe("GET /v1/openapi.json", () => {
  it("marks the three operations experimental", async () => {
    const doc = (await api.call("GET", "/v1/openapi.json", { token: null })).body;
    for (const path of ["/v1/agents/economics", "/v1/agents/{id}/economics", "/v1/agents/me/economics"]) {
      expect(doc.paths[path].get["x-experimental"], path).toBe(true);
    }
  });
});
