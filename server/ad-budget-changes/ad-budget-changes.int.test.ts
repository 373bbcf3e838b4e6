// POST /v1/ad-budget-changes (pinned-wave2 §3.1) on both engines, with real agent tokens: the
// body and integration checks in §1.3's order, every row of the outcome table (owner, no
// covering grant, recommend, execute within / over the limits, deny), the approval each
// execution runs under, the agent decision an agent's change records, approving a held change
// (once, as the agent, params_override validated), rejecting one, replays; on PostgreSQL 50
// concurrent executions against a daily limit, also with amounts whose text order differs.
// What a change counts is its increase over the campaign's budget as the service knows it
// (pinned-wave3 §1.1): `reportBudget` has the platform report one (a budget signal carrying it).
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApi, type TTestApi } from "../../test/helpers/api";
import { expectApiError } from "../../test/helpers/api-error";
import { testEngine } from "../../test/helpers/database";
import { businessGrant, seedAgent, seedBusiness, seedIntegration, staticOwner, type TTestGrant } from "../../test/helpers/seed";
import { ingestSignals } from "../ingest/ingest-service";
import { fixedClock } from "../shared/clock";

const TODAY = "2026-05-08";
let api: TTestApi;
let ownerId: string;
let businessId: string;
let otherBusinessId: string;
/** An active social_ads integration of Atlas. */
let socialId: string;

beforeAll(async () => {
  api = await createTestApi({ clock: fixedClock(`${TODAY}T12:00:00Z`) });
  ownerId = (await staticOwner(api)).ownerId;
  businessId = (await seedBusiness(api, { name: "Atlas" })).id;
  otherBusinessId = (await seedBusiness(api, { name: "Borealis" })).id;
  socialId = await seedIntegration(api.db, { ownerId, provider: "social_ads", businessId });
});
afterAll(async () => api?.close());

const body = (extra: Record<string, unknown> = {}) => ({
  integration_id: socialId,
  campaign_id: "cmp-1",
  previous_daily_budget_minor: 5000,
  new_daily_budget_minor: 7000,
  currency: "EUR",
  reason: "ROAS above target",
  ...extra,
});
const propose = (token: string | undefined, extra: Record<string, unknown> = {}, idempotencyKey?: string) =>
  api.call("POST", "/v1/ad-budget-changes", { token, body: body(extra), idempotencyKey });
const grant = (overrides: Partial<TTestGrant> = {}) => businessGrant(businessId, overrides);
const changesOf = (campaign: string) => api.db.adBudgetChange.count({ where: { campaignId: campaign } });
/**
 * The platform reports `amount` as the campaign's daily budget: a budget signal carrying it, as a
 * webhook delivers it (naming a change of its own, so that it moves none of the campaign's planned ones).
 */
const reportBudget = async (campaign: string, amount: number, occurredAt = `${TODAY}T08:00:00.000Z`, currency = "EUR") => {
  const result = await ingestSignals(api.db, ownerId, [
    {
      integration_id: socialId,
      external_id: randomUUID(),
      code: "budget_change_applied",
      occurred_at: occurredAt,
      ref: { campaign_id: campaign, budget_change_id: randomUUID() },
      amount_minor: amount,
      currency,
    },
  ]);
  expect(result.accepted).toBe(1);
};
const approvalOf = (id: string) => api.db.approval.findUniqueOrThrow({ where: { id } });

describe("the body and the integration", () => {
  it("answers 404 for an unknown integration and another owner's alike", async () => {
    const other = await api.db.owner.create({ data: { email: "ads-other@example.test" } });
    const theirs = await seedIntegration(api.db, { ownerId: other.id, provider: "social_ads" });
    for (const id of [randomUUID(), theirs]) {
      expectApiError(await propose(undefined, { integration_id: id, campaign_id: "foreign" }), 404, "not_found");
    }
    expect(await changesOf("foreign")).toBe(0);
  });

  it("refuses a non-ads integration and a platform's wrong sub-id with 400, an inactive one with 409", async () => {
    const payments = await seedIntegration(api.db, { ownerId, provider: "payments_a", businessId });
    expectApiError(await propose(undefined, { integration_id: payments, campaign_id: "bad" }), 400, "validation_error");
    const wrongSub = await propose(undefined, { campaign_id: "bad", ad_group_id: "ag-1" });
    expectApiError(wrongSub, 400, "validation_error");
    expect(wrongSub.body.error.details.issues.map((i: { path: string }) => i.path)).toEqual(["ad_group_id"]);
    const off = await seedIntegration(api.db, { ownerId, provider: "search_ads", businessId, status: "disconnected" });
    expectApiError(await propose(undefined, { integration_id: off, campaign_id: "bad" }), 409, "state_conflict");
    expect(await changesOf("bad")).toBe(0);
  });

  it("takes effective_on from the owner's today to today + 365, and lists every body problem at once", async () => {
    for (const day of ["2026-05-07", "2027-05-09"]) {
      expectApiError(await propose(undefined, { campaign_id: "range", effective_on: day }), 400, "validation_error");
    }
    expect((await propose(undefined, { campaign_id: "range", effective_on: "2027-05-08" })).status).toBe(201);
    const bad = await propose(undefined, { campaign_id: "", new_daily_budget_minor: -1, currency: "eur" });
    expectApiError(bad, 400, "validation_error");
    expect([...new Set(bad.body.error.details.issues.map((i: { path: string }) => i.path))].sort()).toEqual([
      "campaign_id",
      "currency",
      "new_daily_budget_minor",
    ]);
  });

  it("needs an agent's reason (400 missing_reason)", async () => {
    const agent = await seedAgent(api, { grants: [grant()] });
    expectApiError(await propose(agent.token, { campaign_id: "no-reason", reason: undefined }), 400, "missing_reason");
    expect(await changesOf("no-reason")).toBe(0);
  });
});

describe("the outcome table", () => {
  it("owner: 201, planned, under an auto_approved approval (owner), limit_checked null, no decision, audited", async () => {
    await reportBudget("owner-1", 5000);
    const response = await propose(undefined, {
      campaign_id: "owner-1",
      ad_set_id: "set-9",
      note: "spring push",
      reason: undefined,
    });
    expect(response.status, response.text).toBe(201);
    const change = response.body.data;
    expect(change).toMatchObject({
      business_id: businessId,
      integration_id: socialId,
      platform: "social_ads",
      account_id: expect.stringMatching(/^acct_/),
      campaign_id: "owner-1",
      ad_set_id: "set-9",
      ad_group_id: null,
      previous_daily_budget_minor: 5000,
      claimed_previous_daily_budget_minor: 5000,
      new_daily_budget_minor: 7000,
      delta_daily_minor: 2000,
      counted_daily_minor: 2000,
      currency: "EUR",
      effective_on: TODAY,
      status: "planned",
      limit_checked: null,
      decision_id: null,
      agent_id: null,
      note: "spring push",
      applied_at: null,
      failure: null,
    });
    const approval = await approvalOf(change.approval_id);
    expect(approval).toMatchObject({
      status: "auto_approved",
      trigger: "owner",
      agentId: null,
      action: "ad_budget_change.create",
    });
    expect(approval.result).toMatchObject({ status: "succeeded", data: { id: change.id } });
    const audit = await api.db.auditEntry.findFirst({ where: { action: "ad_budget_change.created", targetId: change.id } });
    expect(audit?.details).toMatchObject({ campaign_id: "owner-1", approval_id: change.approval_id });
  });

  it("agent without an ads grant covering the business: 403 scope_denied, audited, nothing written", async () => {
    const elsewhere = await seedAgent(api, { grants: [businessGrant(otherBusinessId)] });
    const response = await propose(elsewhere.token, { campaign_id: "uncovered" });
    expectApiError(response, 403, "scope_denied");
    expect(response.body.error.details).toEqual({ required_scope: "ads", resource: `business:${businessId}` });
    const noAds = await seedAgent(api, { grants: [{ scope: "finances:observe", resource: "*", level: "execute" }] });
    expectApiError(await propose(noAds.token, { campaign_id: "uncovered" }), 403, "scope_denied");
    for (const agent of [elsewhere, noAds]) {
      expect(await api.db.auditEntry.count({ where: { actorId: agent.id, action: "access.denied" } })).toBe(1);
    }
    expect(await changesOf("uncovered")).toBe(0);
    expect(await api.db.approval.count({ where: { agentId: { in: [elsewhere.id, noAds.id] } } })).toBe(0);
  });

  it("agent at recommend: 202 pending (level_recommend), nothing else written", async () => {
    await reportBudget("recommended", 5000);
    const agent = await seedAgent(api, { grants: [grant({ level: "recommend" })] });
    const response = await propose(agent.token, { campaign_id: "recommended" });
    expect(response.status, response.text).toBe(202);
    expect(response.body.data).toEqual({ approval: { id: expect.any(String), status: "pending" } });
    expect(await approvalOf(response.body.data.approval.id)).toMatchObject({
      trigger: "level_recommend",
      agentId: agent.id,
      amountMinor: 2000n,
      currency: "EUR",
      reason: "ROAS above target",
    });
    expect(await changesOf("recommended")).toBe(0);
    expect(await api.db.agentDecision.count({ where: { agentId: agent.id } })).toBe(0);
  });

  it("agent at execute within its limits: 201 under an auto_approved approval (within_limits) that is limit_checked, with its decision", async () => {
    const agent = await seedAgent(api, { grants: [grant({ daily_limit_minor: 2000, currency: "EUR" })] });
    await reportBudget("within", 5000);
    const response = await propose(agent.token, { campaign_id: "within" });
    expect(response.status, response.text).toBe(201);
    const change = response.body.data;
    expect(change).toMatchObject({ agent_id: agent.id, reason: "ROAS above target", status: "planned" });
    expect(change.limit_checked).toBe(change.approval_id);
    expect(await approvalOf(change.approval_id)).toMatchObject({
      status: "auto_approved",
      trigger: "within_limits",
      agentId: agent.id,
      amountMinor: 2000n,
    });
    const decision = await api.db.agentDecision.findUniqueOrThrow({ where: { id: change.decision_id } });
    expect(decision).toMatchObject({
      agentId: agent.id,
      businessId,
      title: "Daily budget of campaign within: 50.00 → 70.00 EUR",
      amountMinor: 2000n,
      currency: "EUR",
      approvalId: change.approval_id,
      refType: "ad_budget_change",
      refId: change.id,
    });
    const usage = await api.db.agentLimitUsage.findMany({ where: { grant: { agentId: agent.id } } });
    expect(usage.map((u) => u.usedMinor)).toEqual([2000n]);
  });

  it("counts the daily increase over the known budget: a cut counts 0, an unknown budget counts the new one whole", async () => {
    const agent = await seedAgent(api, { grants: [grant({ daily_limit_minor: 3000, currency: "EUR", over_limit: "deny" })] });
    await reportBudget("cut", 9000);
    const cut = await propose(agent.token, {
      campaign_id: "cut",
      previous_daily_budget_minor: 9000,
      new_daily_budget_minor: 100,
    });
    expect(cut.status, cut.text).toBe(201);
    expect((await api.db.agentDecision.findUniqueOrThrow({ where: { id: cut.body.data.decision_id } })).title).toBe(
      "Daily budget of campaign cut: 90.00 → 1.00 EUR",
    );
    expect(cut.body.data).toMatchObject({ delta_daily_minor: -8900, counted_daily_minor: 0 });
    const fresh = await propose(agent.token, {
      campaign_id: "fresh",
      previous_daily_budget_minor: undefined,
      new_daily_budget_minor: 3000,
    });
    expect(fresh.status, fresh.text).toBe(201);
    expect(fresh.body.data).toMatchObject({
      previous_daily_budget_minor: null,
      delta_daily_minor: null,
      counted_daily_minor: 3000,
    });
    const decision = await api.db.agentDecision.findUniqueOrThrow({ where: { id: fresh.body.data.decision_id } });
    expect(decision).toMatchObject({ title: "Daily budget of campaign fresh: unknown → 30.00 EUR", amountMinor: 3000n });
    expectApiError(await propose(agent.token, { campaign_id: "one-more", new_daily_budget_minor: 5001 }), 403, "limit_exceeded");
  });

  it("what the agent spent keeps counting when the owner saves its grants again; a grant of another resource starts at zero", async () => {
    const deny = grant({ daily_limit_minor: 3000, currency: "EUR", over_limit: "deny" });
    const agent = await seedAgent(api, { grants: [deny] });
    await reportBudget("carry-1", 5000);
    await reportBudget("carry-2", 5000);
    const first = await propose(agent.token, { campaign_id: "carry-1" }); // counts 2000 of 3000
    expect(first.status, first.text).toBe(201);
    // The owner saves the grants (a new IP range list, the same grant, and one more of another business).
    const saved = await api.call("PATCH", `/v1/agents/${agent.id}`, {
      body: {
        allowed_ip_ranges: [],
        grants: [deny, businessGrant(otherBusinessId, { daily_limit_minor: 3000, currency: "EUR", over_limit: "deny" })],
      },
    });
    expect(saved.status, saved.text).toBe(200);
    const usage = await api.db.agentLimitUsage.findMany({ where: { grant: { agentId: agent.id } }, include: { grant: true } });
    expect(usage.map((u) => [u.grant.resource, u.period, u.usedMinor])).toEqual([[`business:${businessId}`, "day", 2000n]]);
    // 2000 more would be 4000 of 3000: still refused after the save.
    expectApiError(await propose(agent.token, { campaign_id: "carry-2" }), 403, "limit_exceeded");
    expect(await changesOf("carry-2")).toBe(0);
  });

  it("agent at execute over its limit or in another currency, over_limit approval: 202 pending (over_limit)", async () => {
    const agent = await seedAgent(api, { grants: [grant({ daily_limit_minor: 1999, currency: "EUR" })] });
    const over = await propose(agent.token, { campaign_id: "over" });
    expect(over.status, over.text).toBe(202);
    expect((await approvalOf(over.body.data.approval.id)).trigger).toBe("over_limit");
    const usd = await propose(agent.token, { campaign_id: "over", currency: "USD", new_daily_budget_minor: 5001 });
    expect(usd.status, usd.text).toBe(202);
    expect((await approvalOf(usd.body.data.approval.id)).trigger).toBe("over_limit");
    expect(await changesOf("over")).toBe(0);
    expect(await api.db.agentDecision.count({ where: { agentId: agent.id } })).toBe(0);
  });

  it("agent at execute over its limit, over_limit deny: 403 limit_exceeded, audited, nothing written", async () => {
    const agent = await seedAgent(api, { grants: [grant({ daily_limit_minor: 1999, currency: "EUR", over_limit: "deny" })] });
    expectApiError(await propose(agent.token, { campaign_id: "denied" }), 403, "limit_exceeded", {
      details: { period: "day", limit_minor: 1999, currency: "EUR" },
    });
    expect(await changesOf("denied")).toBe(0);
    expect(await api.db.approval.count({ where: { agentId: agent.id } })).toBe(0);
    const audit = await api.db.auditEntry.findFirst({ where: { actorId: agent.id, action: "access.denied" } });
    expect(audit?.details).toMatchObject({ code: "limit_exceeded" });
  });

  it("compares the limit as exact integers: 10 passes under 95 after 9s, text order notwithstanding", async () => {
    const agent = await seedAgent(api, { grants: [grant({ daily_limit_minor: 95, currency: "EUR", over_limit: "deny" })] });
    const fresh = (n: number, amount: number) =>
      propose(agent.token, { campaign_id: `text-${n}`, previous_daily_budget_minor: undefined, new_daily_budget_minor: amount });
    for (const [n, amount] of [9, 10, 9, 10, 9, 10, 9, 10, 9, 10].entries()) expect((await fresh(n, amount)).status).toBe(201);
    expect((await fresh(10, 1)).status).toBe(403);
  });
});

describe("held changes", () => {
  const held = async (campaign: string) => {
    await reportBudget(campaign, 5000);
    const agent = await seedAgent(api, { grants: [grant({ level: "recommend" })] });
    const response = await propose(agent.token, { campaign_id: campaign });
    expect(response.status, response.text).toBe(202);
    return { agent, approvalId: response.body.data.approval.id as string };
  };

  it("approving executes the change once, as the agent, limit_checked null, with its decision", async () => {
    const { agent, approvalId } = await held("approved");
    const approved = await api.call("POST", `/v1/approvals/${approvalId}/approve`, { body: { decision_note: "go" } });
    expect(approved.status, approved.text).toBe(200);
    expect(approved.body.data).toMatchObject({ status: "approved", decision_note: "go", result: { status: "succeeded" } });
    const rows = await api.db.adBudgetChange.findMany({ where: { campaignId: "approved" } });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ agentId: agent.id, approvalId, limitChecked: null, status: "planned" });
    const decision = await api.db.agentDecision.findUniqueOrThrow({ where: { id: rows[0]!.decisionId! } });
    expect(decision).toMatchObject({ agentId: agent.id, approvalId, amountMinor: 2000n });
    const audit = await api.db.auditEntry.findFirst({ where: { action: "ad_budget_change.created", targetId: rows[0]!.id } });
    expect(audit).toMatchObject({ actorType: "agent", actorId: agent.id });
    expectApiError(await api.call("POST", `/v1/approvals/${approvalId}/approve`, { body: {} }), 409, "state_conflict");
    expect(await changesOf("approved")).toBe(1);
  });

  it("rejecting writes nothing", async () => {
    const { agent, approvalId } = await held("rejected");
    expect((await api.call("POST", `/v1/approvals/${approvalId}/reject`, { body: { decision_note: "no" } })).status).toBe(200);
    expect(await changesOf("rejected")).toBe(0);
    expect(await api.db.agentDecision.count({ where: { agentId: agent.id } })).toBe(0);
  });

  it("validates params_override by the body's schema and checks: a bad one keeps the approval pending", async () => {
    const { approvalId } = await held("overridden");
    for (const params_override of [{ new_daily_budget_minor: -5 }, { effective_on: "2020-01-01" }, { ad_group_id: "x" }]) {
      const refused = await api.call("POST", `/v1/approvals/${approvalId}/approve`, { body: { params_override } });
      expectApiError(refused, 400, "validation_error");
    }
    expect((await approvalOf(approvalId)).status).toBe("pending");
    const approved = await api.call("POST", `/v1/approvals/${approvalId}/approve`, {
      body: { params_override: { new_daily_budget_minor: 6000 } },
    });
    expect(approved.status, approved.text).toBe(200);
    const row = await api.db.adBudgetChange.findFirstOrThrow({ where: { campaignId: "overridden" } });
    expect(row.newDailyBudgetMinor).toBe(6000n);
  });

  it("a replay with the same Idempotency-Key answers the first answer and writes nothing more", async () => {
    const agent = await seedAgent(api, { grants: [grant()] });
    const first = await propose(agent.token, { campaign_id: "replayed" }, "replay-1");
    expect(first.status, first.text).toBe(201);
    const again = await propose(agent.token, { campaign_id: "replayed" }, "replay-1");
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body.data).toEqual(first.body.data);
    expect(await changesOf("replayed")).toBe(1);
    expect(await api.db.approval.count({ where: { agentId: agent.id } })).toBe(1);
  });
});

describe("what counts is what the service knows (pinned-wave3 §1.1)", () => {
  /** The platform applies the change (its budget_change_applied signal), at `occurredAt`. */
  const apply = async (changeId: string, occurredAt: string) => {
    const result = await ingestSignals(api.db, ownerId, [
      {
        integration_id: socialId,
        external_id: randomUUID(),
        code: "budget_change_applied",
        occurred_at: occurredAt,
        ref: { budget_change_id: changeId },
      },
    ]);
    expect(result.accepted).toBe(1);
    expect((await api.db.adBudgetChange.findUniqueOrThrow({ where: { id: changeId } })).status).toBe("applied");
  };
  const denyAt = (limit: number) => grant({ daily_limit_minor: limit, currency: "EUR", over_limit: "deny" });

  it("counts what the service knows, never the previous budget the agent claims", async () => {
    const agent = await seedAgent(api, { grants: [denyAt(1000)] });
    // The issue's two: nothing is known of the campaign, so each counts its whole new budget.
    for (const [previous, next] of [
      [10_000_000, 10_000_000],
      [99_999_999, 100_000_000],
    ]) {
      const refused = await propose(agent.token, {
        campaign_id: "exploit",
        previous_daily_budget_minor: previous,
        new_daily_budget_minor: next,
      });
      expectApiError(refused, 403, "limit_exceeded", { details: { period: "day", limit_minor: 1000, currency: "EUR" } });
    }
    expect(await changesOf("exploit")).toBe(0);
    expect(await api.db.agentLimitUsage.count({ where: { grant: { agentId: agent.id } } })).toBe(0);

    // Once the owner's 10,000,000 is applied, that is the budget known: only the increase over it counts.
    const owners = await propose(undefined, { campaign_id: "exploit", new_daily_budget_minor: 10_000_000, reason: undefined });
    expect(owners.status, owners.text).toBe(201);
    await apply(owners.body.data.id, `${TODAY}T09:00:00.000Z`);
    const same = await propose(agent.token, {
      campaign_id: "exploit",
      previous_daily_budget_minor: 99,
      new_daily_budget_minor: 10_000_000,
    });
    expect(same.status, same.text).toBe(201);
    expect(same.body.data).toMatchObject({
      previous_daily_budget_minor: 10_000_000,
      claimed_previous_daily_budget_minor: 99,
      delta_daily_minor: 0,
      counted_daily_minor: 0,
    });
    const raise = await propose(agent.token, {
      campaign_id: "exploit",
      previous_daily_budget_minor: 99_999_999,
      new_daily_budget_minor: 10_000_900,
    });
    expect(raise.status, raise.text).toBe(201);
    expect(raise.body.data).toMatchObject({ previous_daily_budget_minor: 10_000_000, counted_daily_minor: 900 });
    const decision = await api.db.agentDecision.findUniqueOrThrow({ where: { id: raise.body.data.decision_id } });
    expect(decision).toMatchObject({ title: "Daily budget of campaign exploit: 100000.00 → 100009.00 EUR", amountMinor: 900n });
    // 900 + 200 is over 1,000, whatever the agent says the budget was.
    const over = await propose(agent.token, {
      campaign_id: "exploit",
      previous_daily_budget_minor: 10_000_200,
      new_daily_budget_minor: 10_000_200,
    });
    expectApiError(over, 403, "limit_exceeded");
    const usage = await api.db.agentLimitUsage.findMany({ where: { grant: { agentId: agent.id } } });
    expect(usage.map((u) => u.usedMinor)).toEqual([900n]);
  });

  it("a platform-reported budget and an applied change both move what is known: the newer one", async () => {
    const agent = await seedAgent(api, { grants: [grant({ daily_limit_minor: 100_000, currency: "EUR" })] });
    const counted = async (next: number) => {
      const response = await propose(agent.token, {
        campaign_id: "moves",
        previous_daily_budget_minor: 1,
        new_daily_budget_minor: next,
      });
      expect(response.status, response.text).toBe(201);
      const { previous_daily_budget_minor, counted_daily_minor } = response.body.data;
      return [previous_daily_budget_minor, counted_daily_minor];
    };
    expect(await counted(4000)).toEqual([null, 4000]);
    await reportBudget("moves", 4000, `${TODAY}T08:00:00.000Z`);
    expect(await counted(4500)).toEqual([4000, 500]);
    // The owner's change to 6,000, applied at 09:00: newer than the report.
    const owners = await propose(undefined, { campaign_id: "moves", new_daily_budget_minor: 6000, reason: undefined });
    await apply(owners.body.data.id, `${TODAY}T09:00:00.000Z`);
    expect(await counted(6100)).toEqual([6000, 100]);
    // The platform reports 3,000 at 10:00 (lowered on its side): newer than the applied change.
    await reportBudget("moves", 3000, `${TODAY}T10:00:00.000Z`);
    expect(await counted(3500)).toEqual([3000, 500]);
    // A report of an earlier time, arriving late, is older than what is known.
    await reportBudget("moves", 9000, `${TODAY}T07:00:00.000Z`);
    expect(await counted(3500)).toEqual([3000, 500]);
    // A budget in another currency cannot be compared exactly: unknown, the whole new budget counts.
    await reportBudget("moves", 3000, `${TODAY}T11:00:00.000Z`, "USD");
    expect(await counted(3500)).toEqual([null, 3500]);
  });

  it("a held change is counted when the owner approves it, from what is known then", async () => {
    const agent = await seedAgent(api, { grants: [grant({ level: "recommend" })] });
    const response = await propose(agent.token, { campaign_id: "later", previous_daily_budget_minor: 6999 });
    expect(response.status, response.text).toBe(202);
    const approvalId = response.body.data.approval.id as string;
    expect((await approvalOf(approvalId)).amountMinor).toBe(7000n);
    // The owner sees what it would commit, from what is known at each look.
    const effect = async () => {
      const one = await api.call("GET", `/v1/approvals/${approvalId}`);
      const list = await api.call("GET", "/v1/approvals?status=pending&kind=write&limit=100");
      const listed = list.body.data.find((a: { id: string }) => a.id === approvalId);
      expect(listed.ad_budget_effect).toEqual(one.body.data.ad_budget_effect);
      return one.body.data.ad_budget_effect;
    };
    expect(await effect()).toEqual({
      integration_id: socialId,
      campaign_id: "later",
      currency: "EUR",
      known_previous_daily_budget_minor: null,
      claimed_previous_daily_budget_minor: 6999,
      new_daily_budget_minor: 7000,
      delta_daily_minor: null,
      counted_daily_minor: 7000,
      effective_on: TODAY,
      forecast: { from: TODAY, to: "2026-06-06", days: 30, committed_minor: 210_000 },
    });
    await reportBudget("later", 6500);
    expect(await effect()).toMatchObject({
      known_previous_daily_budget_minor: 6500,
      delta_daily_minor: 500,
      counted_daily_minor: 500,
    });
    const approved = await api.call("POST", `/v1/approvals/${approvalId}/approve`, { body: {} });
    expect(approved.status, approved.text).toBe(200);
    expect(approved.body.data).toMatchObject({ amount_minor: 500, currency: "EUR", ad_budget_effect: null });
    const change = await api.db.adBudgetChange.findFirstOrThrow({ where: { campaignId: "later" } });
    expect(change).toMatchObject({
      previousDailyBudgetMinor: 6500n,
      claimedPreviousDailyBudgetMinor: 6999n,
      countedDailyMinor: 500n,
    });
    const decision = await api.db.agentDecision.findUniqueOrThrow({ where: { id: change.decisionId! } });
    expect(decision).toMatchObject({ title: "Daily budget of campaign later: 65.00 → 70.00 EUR", amountMinor: 500n });
  });
});

describe.skipIf(testEngine() !== "postgres")("concurrent executions against a daily limit (PostgreSQL)", () => {
  const race = async (prefix: string, limit: number, amounts: number[]) => {
    const agent = await seedAgent(api, { grants: [grant({ daily_limit_minor: limit, currency: "EUR" })] });
    const responses = await Promise.all(
      amounts.map((amount, i) =>
        propose(agent.token, {
          campaign_id: `${prefix}-${i}`,
          previous_daily_budget_minor: undefined,
          new_daily_budget_minor: amount,
        }),
      ),
    );
    for (const r of responses) expect([201, 202], r.text).toContain(r.status);
    const executed = amounts.filter((_, i) => responses[i]!.status === 201);
    const held = amounts.filter((_, i) => responses[i]!.status === 202);
    const rows = await api.db.adBudgetChange.findMany({ where: { agentId: agent.id } });
    const usage = await api.db.agentLimitUsage.findMany({ where: { grant: { agentId: agent.id } } });
    const approvals = await api.db.approval.groupBy({ by: ["trigger"], where: { agentId: agent.id }, _count: true });
    return { agent, executed, held, rows, usage, approvals };
  };

  it("50 of 100 under a limit of 1,000: exactly 10 execute, 40 are held over_limit", async () => {
    const { executed, rows, usage, approvals, agent } = await race(
      "race",
      1000,
      Array.from({ length: 50 }, () => 100),
    );
    expect(executed).toHaveLength(10);
    expect(rows).toHaveLength(10);
    expect(usage.map((u) => u.usedMinor)).toEqual([1000n]);
    expect(Object.fromEntries(approvals.map((a) => [a.trigger, a._count]))).toEqual({ within_limits: 10, over_limit: 40 });
    expect(await api.db.agentDecision.count({ where: { agentId: agent.id } })).toBe(10);
  });

  it("50 of 9 and 10 (text order ≠ numeric order): as many execute as fit, the rest are held", async () => {
    const amounts = Array.from({ length: 50 }, (_, i) => (i % 2 === 0 ? 9 : 10));
    // 475 in all: under 475 every one fits; under 470 the last that cannot fit are held.
    const all = await race("text-all", 475, amounts);
    expect(all.executed).toHaveLength(50);
    expect(all.usage.map((u) => u.usedMinor)).toEqual([475n]);

    const { executed, held, rows, usage } = await race("text-some", 470, amounts);
    const sum = executed.reduce((a, b) => a + b, 0);
    expect(rows).toHaveLength(executed.length);
    expect(usage.map((u) => u.usedMinor)).toEqual([BigInt(sum)]);
    expect(sum).toBeLessThanOrEqual(470);
    expect(held.length).toBeGreaterThan(0);
    // Nothing held would still have fitted: no wrong refusal.
    expect(470 - sum).toBeLessThan(Math.min(...held));
  });

  it("20 at once, each claiming any previous budget, never execute more than the limit of what is known", async () => {
    const agent = await seedAgent(api, { grants: [grant({ daily_limit_minor: 1000, currency: "EUR", over_limit: "deny" })] });
    await reportBudget("claims", 5000, `${TODAY}T08:00:00.000Z`);
    // Raises of 100 to 700 over the known 5,000, each claiming a previous budget that would make
    // it count nothing (or little), none, or a figure above the new one; and, while they run, the
    // platform reports the budget lowered to 4,800.
    const claims = [(next: number) => next, (next: number) => next - 1, () => 99_999_999, () => undefined];
    const raises = Array.from({ length: 20 }, (_, i) => 100 + (i % 7) * 100);
    const [responses] = await Promise.all([
      Promise.all(
        raises.map((raise, i) =>
          propose(agent.token, {
            campaign_id: "claims",
            previous_daily_budget_minor: claims[i % claims.length]!(5000 + raise),
            new_daily_budget_minor: 5000 + raise,
          }),
        ),
      ),
      reportBudget("claims", 4800, `${TODAY}T09:00:00.000Z`),
    ]);
    for (const r of responses) expect([201, 403], r.text).toContain(r.status);
    expect(responses.filter((r) => r.status === 403).length).toBeGreaterThan(0);
    const rows = await api.db.adBudgetChange.findMany({ where: { agentId: agent.id } });
    expect(rows).toHaveLength(responses.filter((r) => r.status === 201).length);
    expect(rows.length).toBeGreaterThan(0);
    let total = 0n;
    for (const row of rows) {
      // Each counted its increase over a budget the service knew when it ran.
      expect([5000n, 4800n]).toContain(row.previousDailyBudgetMinor);
      expect(row.countedDailyMinor).toBe(row.newDailyBudgetMinor - row.previousDailyBudgetMinor!);
      total += row.countedDailyMinor;
    }
    expect(total).toBeLessThanOrEqual(1000n);
    const usage = await api.db.agentLimitUsage.findMany({ where: { grant: { agentId: agent.id } } });
    expect(usage.map((u) => u.usedMinor)).toEqual([total]);
  });
});
