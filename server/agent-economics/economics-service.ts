// Agent economics (pinned-wave2 §3.3): GET /v1/agents/economics, /v1/agents/{id}/economics and
// /v1/agents/me/economics. Who sees what:
//   owner: every agent of theirs (list), any one of them ({id}), 404 on me/economics;
//   agent: a list holding only itself, itself by id or as `me`; another agent of the owner by
//          id → 403 scope_denied (own records, §1.2.4), audited.
// business_id restricts every figure; an agent needs a grant of any scope covering it.
//
// Order of checks (§1.3): the period (400) → the agent and the business (404) → own record and
// grant coverage (403) → the sums.
//
// The sums run in SQL, one GROUP BY per source, for every agent at once:
//   approvals (kind write) by agent, status and currency; access.denied audit entries by agent;
//   ad budget changes by agent, status and currency; counted actual events with an agent_id by
//   agent and direction (frozen base amounts); decisions by agent with their stored outcomes.
// Closed decisions no read has measured yet are measured and stored first (the decisions
// domain's own computation), so that every closed outcome is a stored row.
import { utcMidnightOf, zoneDayStart } from "../../lib/days";
import { requireAnyGrant, requireOwnRecord, type TAccessCall } from "../access/check-access";
import type { TCaller } from "../auth/caller";
import type { TDbOrTx } from "../db/client";
import { Prisma } from "../db/generated/client";
import { storeClosedOutcomes } from "../decisions/outcome-service";
import { AppError } from "../errors/app-error";
import { actualMoneySql, sumInSql, sumOutSql } from "../read-models/counted";
import {
  currentAmounts,
  displayList,
  snapshotConversions,
  toBigInt,
  toDisplay,
  type TSummaryConversion,
} from "../read-models/display";
import { dayEndExclusive, daySql, resolvePeriod, type TOwnerDay, type TPeriod } from "../read-models/period";
import { eventScopeSql, OWNER_SCOPE, resolveBusinessScope, type TReadScope } from "../read-models/scope";
import type {
  TAgentEconomics,
  TAgentEconomicsResponse,
  TAgentsEconomicsResponse,
  TEconomicsQuery,
} from "./agent-economics.schema";
import {
  CHANGE_STATUSES,
  emptyEconomics,
  moneyOf,
  sumEconomics,
  toFigures,
  withMoney,
  WRITE_STATUSES,
  type TChangeStatus,
  type TEconomics,
  type TWriteStatus,
} from "./economics-figures";
import { AGENT_STATUSES } from "../agents/agent.schema";
import { parseState } from "../shared/parse-state";

type TAgentRow = { id: string; name: string; status: string };

/** A call's context: who asks, the owner's day, the query, the operation (for a denial's audit entry). */
export type TEconomicsCall = { caller: TCaller; day: TOwnerDay; query: TEconomicsQuery; operation: string };

const AGENT_SELECT = { id: true, name: true, status: true } as const;

function accessCall(db: TDbOrTx, call: TEconomicsCall): TAccessCall {
  return { operation: call.operation, db: () => db, requestId: call.caller.requestId };
}

/** The period (400, K1). */
function periodOf(call: TEconomicsCall): TPeriod {
  return resolvePeriod(call.query, call.day.today);
}

/** business_id, the owner's (404 when unknown or another owner's), or null. */
async function businessOf(db: TDbOrTx, call: TEconomicsCall): Promise<string | null> {
  if (call.query.business_id === undefined) return null;
  return (await resolveBusinessScope(db, call.caller.ownerId, call.query.business_id)).businessId;
}

/** An agent restricting the figures to a business needs a grant of any scope covering it (403, audited). */
async function requireBusinessGrant(db: TDbOrTx, call: TEconomicsCall, businessId: string | null): Promise<void> {
  const { actor } = call.caller;
  if (businessId !== null && actor.type === "agent") {
    await requireAnyGrant(actor, { kind: "business", businessId }, accessCall(db, call));
  }
}

/** GET /v1/agents/economics: the owner's agents, newest first; an agent: itself alone. */
export async function findAgentsEconomics(db: TDbOrTx, call: TEconomicsCall): Promise<TAgentsEconomicsResponse> {
  const { actor } = call.caller;
  const period = periodOf(call);
  const businessId = await businessOf(db, call);
  await requireBusinessGrant(db, call, businessId);
  const agents = await db.agent.findMany({
    where: { ownerId: call.caller.ownerId, ...(actor.type === "agent" ? { id: actor.agentId } : {}) },
    select: AGENT_SELECT,
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
  });
  const { byAgent, conversions } = await loadEconomics(db, call.day, agents, period, businessId);
  const list = agents.map((agent) => byAgent.get(agent.id)!);
  const totals = sumEconomics(list);

  // The totals are converted once (the envelope's fx); each agent's amounts at the same rate.
  const shown = await toDisplay(db, call.day, {
    displayCurrency: call.query.display_currency,
    components: moneyComponents(totals),
    conversions,
  });
  const listed = await displayList(db, call.day, call.query.display_currency, list.flatMap(moneyOf));
  const per = moneyOf(totals).length;
  return {
    data: {
      currency: shown.currency,
      base_currency: shown.baseCurrency,
      from: period.from,
      to: period.to,
      business_id: businessId,
      agents: agents.map((agent, i) =>
        agentDto(agent, withMoney(list[i]!, listed.slice(i * per, (i + 1) * per)), `agents.${i}.`),
      ),
      totals: toFigures(withMoney(totals, fromComponents(shown.amounts)), "totals."),
    },
    fx: shown.fx,
  };
}

/** GET /v1/agents/{id}/economics: the owner's agent; an agent only itself (another: 403, audited). */
export async function getAgentEconomics(db: TDbOrTx, call: TEconomicsCall, agentId: string): Promise<TAgentEconomicsResponse> {
  const { actor } = call.caller;
  const period = periodOf(call);
  const businessId = await businessOf(db, call);
  const agent = await db.agent.findFirst({ where: { id: agentId, ownerId: call.caller.ownerId }, select: AGENT_SELECT });
  if (!agent) throw AppError.notFound("agent");
  if (actor.type === "agent") await requireOwnRecord(actor, agent.id, `agent:${agent.id}`, accessCall(db, call));
  await requireBusinessGrant(db, call, businessId);
  return oneAgent(db, call, agent, period, businessId);
}

/** GET /v1/agents/me/economics: the calling agent's; the owner is not an agent (404). */
export async function getMyEconomics(db: TDbOrTx, call: TEconomicsCall): Promise<TAgentEconomicsResponse> {
  const { actor } = call.caller;
  if (actor.type !== "agent") {
    throw new AppError("not_found", "The owner is not an agent: GET /v1/agents/economics lists every agent's economics.");
  }
  const period = periodOf(call);
  const businessId = await businessOf(db, call);
  await requireBusinessGrant(db, call, businessId);
  const agent = await db.agent.findFirst({ where: { id: actor.agentId, ownerId: call.caller.ownerId }, select: AGENT_SELECT });
  if (!agent) throw AppError.notFound("agent");
  return oneAgent(db, call, agent, period, businessId);
}

async function oneAgent(
  db: TDbOrTx,
  call: TEconomicsCall,
  agent: TAgentRow,
  period: TPeriod,
  businessId: string | null,
): Promise<TAgentEconomicsResponse> {
  const { byAgent, conversions } = await loadEconomics(db, call.day, [agent], period, businessId);
  const economics = byAgent.get(agent.id)!;
  const shown = await toDisplay(db, call.day, {
    displayCurrency: call.query.display_currency,
    components: moneyComponents(economics),
    conversions,
  });
  return {
    data: {
      currency: shown.currency,
      base_currency: shown.baseCurrency,
      from: period.from,
      to: period.to,
      business_id: businessId,
      ...agentDto(agent, withMoney(economics, fromComponents(shown.amounts))),
    },
    fx: shown.fx,
  };
}

function agentDto(agent: TAgentRow, economics: TEconomics, at = ""): TAgentEconomics {
  return {
    agent_id: agent.id,
    name: agent.name,
    status: parseState(AGENT_STATUSES, agent.status),
    ...toFigures(economics, at),
  };
}

const MONEY_KEYS = ["committed", "daily_increase", "in", "out", "value"] as const;
type TMoneyKey = (typeof MONEY_KEYS)[number];

function moneyComponents(e: TEconomics): Record<TMoneyKey, bigint> {
  const money = moneyOf(e);
  return Object.fromEntries(MONEY_KEYS.map((key, i) => [key, money[i]!])) as Record<TMoneyKey, bigint>;
}

function fromComponents(amounts: Record<TMoneyKey, bigint>): bigint[] {
  return MONEY_KEYS.map((key) => amounts[key]);
}

// --- the sums ---------------------------------------------------------------------------

type TCurrencySum = { kind: "committed" | "increase" | "value"; agentId: string; currency: string; amount: bigint };

/**
 * Every figure of `agents` over the period (restricted to `businessId` when given), in base minor
 * units, with the conversions behind them (the envelope's fx).
 */
export async function loadEconomics(
  db: TDbOrTx,
  day: TOwnerDay,
  agents: readonly { id: string }[],
  period: TPeriod,
  businessId: string | null,
): Promise<{ byAgent: Map<string, TEconomics>; conversions: TSummaryConversion[] }> {
  const byAgent = new Map(agents.map((agent) => [agent.id, emptyEconomics()]));
  if (agents.length === 0) return { byAgent, conversions: [] };
  const ownerId = day.ownerId;
  const ids = agents.map((agent) => agent.id);
  // created_at by its day in the owner's timezone: [start of from, end of to).
  const createdFrom = zoneDayStart(day.timezone, period.from);
  const createdTo = dayEndExclusive(day.timezone, period.to);
  const scope: TReadScope = businessId ? { kind: "business", businessId } : OWNER_SCOPE;

  // What a write's or a denial's resource may be, for the business filter.
  const [projectIds, integrationIds] = businessId
    ? await Promise.all([
        db.project.findMany({ where: { ownerId, businessId }, select: { id: true } }).then((rows) => rows.map((r) => r.id)),
        db.integration.findMany({ where: { ownerId, businessId }, select: { id: true } }).then((rows) => rows.map((r) => r.id)),
      ])
    : [[], []];

  // Decisions first: closed outcomes stored, so the decision sums below read stored rows only.
  await storeClosedOutcomes(db, day, {
    agentId: { in: ids },
    occurredOn: { gte: utcMidnightOf(period.from), lte: utcMidnightOf(period.to) },
    ...(businessId ? { businessId } : {}),
  });

  const approvalBusiness = businessId
    ? Prisma.sql`AND (a.params->>'business_id' = ${businessId}
                      OR a.params->>'project_id' = ANY(${projectIds}::text[])
                      OR a.params->>'integration_id' = ANY(${integrationIds}::text[]))`
    : Prisma.empty;
  const resources = businessId ? [`business:${businessId}`, ...projectIds.map((id) => `project:${id}`)] : [];
  const denialBusiness = businessId ? Prisma.sql`AND ae.details->>'resource' = ANY(${resources}::text[])` : Prisma.empty;
  const changeBusiness = businessId ? Prisma.sql`AND c.business_id = ${businessId}::uuid` : Prisma.empty;
  const decisionBusiness = businessId ? Prisma.sql`AND d.business_id = ${businessId}::uuid` : Prisma.empty;
  const attributedWhere = Prisma.sql`${eventScopeSql("e", ownerId, scope)} AND e.agent_id = ANY(${ids}::uuid[])
    AND ${actualMoneySql("e")} AND e.occurred_on BETWEEN ${daySql(period.from)} AND ${daySql(period.to)}`;

  const [approvals, denials, changes, attributed, decisions, snapshots] = await Promise.all([
    db.$queryRaw<Array<{ agent_id: string; status: string; currency: string | null; count: unknown; amount: unknown }>>`
      SELECT a.agent_id::text AS agent_id, a.status, a.currency::text AS currency, COUNT(*)::text AS count,
             COALESCE(SUM(a.amount_minor), 0)::text AS amount
        FROM approvals a
       WHERE a.owner_id = ${ownerId}::uuid AND a.kind = 'write' AND a.agent_id = ANY(${ids}::uuid[])
         AND a.created_at >= ${createdFrom} AND a.created_at < ${createdTo} ${approvalBusiness}
       GROUP BY 1, 2, 3`,
    db.$queryRaw<Array<{ agent_id: string; count: unknown }>>`
      SELECT ae.actor_id AS agent_id, COUNT(*)::text AS count
        FROM audit_entries ae
       WHERE ae.owner_id = ${ownerId}::uuid AND ae.action = 'access.denied' AND ae.actor_type = 'agent'
         AND ae.actor_id = ANY(${ids}::text[])
         AND ae.created_at >= ${createdFrom} AND ae.created_at < ${createdTo} ${denialBusiness}
       GROUP BY 1`,
    db.$queryRaw<Array<{ agent_id: string; status: string; currency: string; count: unknown; increase: unknown }>>`
      SELECT c.agent_id::text AS agent_id, c.status, c.currency::text AS currency, COUNT(*)::text AS count,
             COALESCE(SUM(c.counted_daily_minor) FILTER (WHERE c.status <> 'failed'), 0)::text AS increase
        FROM ad_budget_changes c
       WHERE c.owner_id = ${ownerId}::uuid AND c.agent_id = ANY(${ids}::uuid[])
         AND c.created_at >= ${createdFrom} AND c.created_at < ${createdTo} ${changeBusiness}
       GROUP BY 1, 2, 3`,
    db.$queryRaw<Array<{ agent_id: string; in_minor: unknown; out_minor: unknown }>>`
      SELECT e.agent_id::text AS agent_id, ${sumInSql("e")}::text AS in_minor, ${sumOutSql("e")}::text AS out_minor
        FROM financial_events e
       WHERE ${attributedWhere}
       GROUP BY 1`,
    db.$queryRaw<
      Array<{
        agent_id: string;
        base_currency: string | null;
        count: unknown;
        measured: unknown;
        inconclusive: unknown;
        better: unknown;
        as_expected: unknown;
        worse: unknown;
        value: unknown;
      }>
    >`
      SELECT d.agent_id::text AS agent_id, o.base_currency::text AS base_currency, COUNT(*)::text AS count,
             COUNT(*) FILTER (WHERE o.status = 'measured')::text AS measured,
             COUNT(*) FILTER (WHERE o.status = 'inconclusive')::text AS inconclusive,
             COUNT(*) FILTER (WHERE o.status = 'measured' AND o.verdict = 'better')::text AS better,
             COUNT(*) FILTER (WHERE o.status = 'measured' AND o.verdict = 'as_expected')::text AS as_expected,
             COUNT(*) FILTER (WHERE o.status = 'measured' AND o.verdict = 'worse')::text AS worse,
             COALESCE(SUM(CASE WHEN o.metric IN ('outflow', 'ad_spend') THEN -o.delta_minor ELSE o.delta_minor END)
                      FILTER (WHERE o.status = 'measured'), 0)::text AS value
        FROM agent_decisions d
        LEFT JOIN decision_outcomes o ON o.decision_id = d.id
       WHERE d.owner_id = ${ownerId}::uuid AND d.agent_id = ANY(${ids}::uuid[])
         AND d.occurred_on BETWEEN ${daySql(period.from)} AND ${daySql(period.to)} ${decisionBusiness}
       GROUP BY 1, 2`,
    snapshotConversions(db, Prisma.sql`financial_events e`, "e", attributedWhere),
  ]);

  const committed: TCurrencySum[] = [];
  for (const row of approvals) {
    const e = byAgent.get(row.agent_id)!;
    const status = row.status as TWriteStatus;
    // dismissed is for requests, and failed is not written today: neither counts.
    if (!WRITE_STATUSES.includes(status)) continue;
    e.writes[status] += Number(row.count);
    if ((status === "auto_approved" || status === "approved") && row.currency !== null) {
      committed.push({ kind: "committed", agentId: row.agent_id, currency: row.currency, amount: toBigInt(row.amount) });
    }
  }
  for (const row of denials) byAgent.get(row.agent_id)!.writes.denied += Number(row.count);

  const increases: TCurrencySum[] = [];
  for (const row of changes) {
    const e = byAgent.get(row.agent_id)!;
    const count = Number(row.count);
    e.adBudget.changes += count;
    if (CHANGE_STATUSES.includes(row.status as TChangeStatus)) e.adBudget[row.status as TChangeStatus] += count;
    increases.push({ kind: "increase", agentId: row.agent_id, currency: row.currency, amount: toBigInt(row.increase) });
  }

  for (const row of attributed) {
    const e = byAgent.get(row.agent_id)!;
    e.attributed.inMinor += toBigInt(row.in_minor);
    e.attributed.outMinor += toBigInt(row.out_minor);
  }

  // Outcomes stored in an earlier base currency are worth their value at today's rate.
  const values: TCurrencySum[] = [];
  for (const row of decisions) {
    const d = byAgent.get(row.agent_id)!.decisions;
    d.count += Number(row.count);
    d.measured += Number(row.measured);
    d.inconclusive += Number(row.inconclusive);
    d.better += Number(row.better);
    d.as_expected += Number(row.as_expected);
    d.worse += Number(row.worse);
    if (row.base_currency !== null) {
      values.push({ kind: "value", agentId: row.agent_id, currency: row.base_currency, amount: toBigInt(row.value) });
    }
  }

  // Every currency's sum at today's rate, in one lookup (422 without a rate).
  const sums = [...committed, ...increases, ...values].filter((s) => s.amount !== 0n);
  const { amounts, conversions } = await currentAmounts(
    db,
    day,
    sums.map((s) => ({ amountMinor: s.amount, currency: s.currency })),
  );
  sums.forEach((sum, i) => {
    const e = byAgent.get(sum.agentId)!;
    const amount = amounts[i]!;
    if (sum.kind === "committed") e.committedMinor += amount;
    else if (sum.kind === "increase") e.adBudget.dailyIncreaseMinor += amount;
    else e.decisions.valueMinor += amount;
  });
  return { byAgent, conversions: [...snapshots, ...conversions] };
}
