// Agent decisions (pinned-wave2 §3.2): what an agent decided, why, and the effect it expects,
// recorded by the agent itself or by the owner naming one of their agents. A decision commits
// no money and counts against no limit, so it is never held for approval (201 whatever the
// grant's level). One transaction writes the decision, its agent_action event (actual, MANUAL,
// payload { decision_id, title, expected }; agent_action has no direction, so no summary counts
// it) and the agent_decision.created audit entry.
//
// Order of checks (§1.3): the body (400: agent_id, occurred_on; then missing_reason) → the
// resources (404: scope, the named agent, the approval) → an agent's grant of any scope
// covering the scope (403 scope_denied, audited) → the write.
import { randomUUID } from "node:crypto";
import { utcDayOf, utcMidnightOf } from "../../lib/days";
import { requireAnyGrant } from "../access/check-access";
import type { TCaller } from "../auth/caller";
import type { TResource } from "../auth/grants";
import { requireReason } from "../approvals/reason";
import { auditCaller } from "../audit/audit-service";
import type { TDbOrTx, TTx } from "../db/client";
import type { AgentDecision, Prisma } from "../db/generated/client";
import { inTransaction } from "../db/transaction";
import { AppError } from "../errors/app-error";
import { toJsonAmount } from "../fx/base-amounts";
import { baseAtWrite, insertManualEventRow, lockedOwner, ownerSettings, type TManualRow } from "../ledger/ledger-service";
import { resolveScope, toScopeDto, type TScope } from "../shared/scope";
import type { TAgentDecision, TCreateAgentDecisionInput, TDecisionExpectation, TDecisionMetric } from "./decision.schema";

/** A decision to record, every reference already resolved and access already decided. */
export type TRecordDecisionInput = {
  /** The deciding agent: the calling agent, or the owner's agent the owner named. */
  agentId: string;
  scope: TScope;
  title: string;
  rationale?: string | null;
  /** Minor units ≥ 0 of `currency`, for the record (the agent_action event's amount). */
  amountMinor: bigint;
  currency: string;
  /** YYYY-MM-DD, not after the owner's today (the caller checked). */
  occurredOn: string;
  expected?: TDecisionExpectation | null;
  approvalId?: string | null;
  ref?: { type: string; id: string } | null;
  reason?: string | null;
};

/**
 * Records a decision in the transaction `tx` the caller already holds: the decision, its
 * agent_action event and the `agent_decision.created` audit entry, all or nothing with the
 * caller's own write. It checks nothing: the caller has resolved the scope (its business), the
 * agent and any approval for the owner, and decided access. An FX failure of the event's base
 * amount (422) throws and so rolls the caller's transaction back.
 *
 * Issue 17's ad budget changes call it when an agent's change executes (pinned §3.1):
 *
 *   await recordAgentDecisionInTx(tx, caller, {
 *     agentId: agent.agentId, scope, occurredOn: today,
 *     title: adBudgetChangeTitle(campaign_id, previous, next, currency),
 *     amountMinor: counted, currency, approvalId, ref: { type: "ad_budget_change", id }, reason,
 *   });
 */
export async function recordAgentDecisionInTx(tx: TTx, caller: TCaller, input: TRecordDecisionInput): Promise<TAgentDecision> {
  const owner = await lockedOwner(tx, caller.ownerId, await ownerSettings(tx, caller.ownerId, caller.now));
  const id = randomUUID();
  const row: TManualRow = {
    type: "agent_action",
    state: "actual",
    amountMinor: input.amountMinor,
    currency: input.currency,
    occurredOn: input.occurredOn,
    description: input.title,
    payload: { decision_id: id, title: input.title, expected: input.expected ?? null } satisfies Prisma.InputJsonObject,
    agentId: input.agentId,
  };
  const event = await insertManualEventRow(tx, caller, input.scope, row, await baseAtWrite(tx, owner, row));
  const decision = await tx.agentDecision.create({
    data: {
      id,
      ownerId: caller.ownerId,
      agentId: input.agentId,
      ...input.scope,
      title: input.title,
      rationale: input.rationale ?? null,
      amountMinor: input.amountMinor,
      currency: input.currency,
      occurredOn: utcMidnightOf(input.occurredOn),
      expectedMetric: input.expected?.metric ?? null,
      expectedDeltaMinor: input.expected ? BigInt(input.expected.delta_minor) : null,
      expectedCurrency: input.expected?.currency ?? null,
      expectedWindowDays: input.expected?.window_days ?? null,
      approvalId: input.approvalId ?? null,
      refType: input.ref?.type ?? null,
      refId: input.ref?.id ?? null,
      reason: input.reason ?? null,
      eventId: event.id,
    },
  });
  await auditCaller(
    tx,
    caller,
    "agent_decision.created",
    { type: "agent_decision", id },
    {
      agent_id: input.agentId,
      event_id: event.id,
      title: input.title,
      amount_minor: toJsonAmount(input.amountMinor, "amount_minor"),
      currency: input.currency,
      occurred_on: input.occurredOn,
      ...(input.expected ? { expected: input.expected } : {}),
      ...(input.approvalId ? { approval_id: input.approvalId } : {}),
    },
  );
  return toDecisionDto(decision);
}

/** POST /v1/agent-decisions. `operation` names the call in a denial's audit entry. */
export async function createAgentDecision(
  db: TDbOrTx,
  caller: TCaller,
  input: TCreateAgentDecisionInput,
  operation: string,
): Promise<TAgentDecision> {
  const owner = await ownerSettings(db, caller.ownerId, caller.now);
  const agent = caller.actor.type === "agent" ? caller.actor : null;
  const occurredOn = input.occurred_on ?? owner.today;

  // 400: every problem of the body at once, then an agent's reason.
  const issues: Array<{ path: string; message: string }> = [];
  if (agent && input.agent_id !== undefined && input.agent_id !== agent.agentId) {
    issues.push({ path: "agent_id", message: "an agent records its own decisions: omit agent_id or give your own id" });
  }
  if (!agent && input.agent_id === undefined) {
    issues.push({ path: "agent_id", message: "is required: the agent whose decision this is" });
  }
  if (occurredOn > owner.today) issues.push({ path: "occurred_on", message: `must not be after today (${owner.today})` });
  if (issues.length > 0) {
    throw new AppError("validation_error", issues.map((i) => `${i.path}: ${i.message}`).join("; "), { details: { issues } });
  }
  const reason = agent ? requireReason(input.reason) : (input.reason ?? null);

  // 404: the scope, the named agent and the approval must be the owner's.
  const scope = await resolveScope(db, caller.ownerId, input);
  const agentId = agent ? agent.agentId : await ownersAgentId(db, caller.ownerId, input.agent_id!);
  if (input.approval_id !== undefined) {
    const approval = await db.approval.findFirst({
      where: { id: input.approval_id, ownerId: caller.ownerId },
      select: { id: true },
    });
    if (!approval) throw AppError.notFound("approval");
  }

  // 403: an agent needs a grant, of any scope, covering the decision's scope (audited).
  if (agent) await requireAnyGrant(agent, resourceOfScope(scope), { operation, db: () => db, requestId: caller.requestId });

  return inTransaction(db, (tx) =>
    recordAgentDecisionInTx(tx, caller, {
      agentId,
      scope,
      title: input.title,
      rationale: input.rationale ?? null,
      amountMinor: BigInt(input.amount_minor ?? 0),
      currency: input.currency ?? owner.baseCurrency,
      occurredOn,
      expected: input.expected ?? null,
      approvalId: input.approval_id ?? null,
      ref: input.ref ?? null,
      reason,
    }),
  );
}

async function ownersAgentId(db: TDbOrTx, ownerId: string, agentId: string): Promise<string> {
  const agent = await db.agent.findFirst({ where: { id: agentId, ownerId }, select: { id: true } });
  if (!agent) throw AppError.notFound("agent");
  return agent.id;
}

/** A record's scope in grant terms (a project with its business). */
export function resourceOfScope(scope: TScope): TResource {
  if (scope.projectId) return { kind: "project", projectId: scope.projectId, businessId: scope.businessId! };
  if (scope.businessId) return { kind: "business", businessId: scope.businessId };
  return { kind: "personal" };
}

/** The decision's expectation as recorded, or null. */
export function expectationOf(row: AgentDecision): TDecisionExpectation | null {
  if (row.expectedMetric === null || row.expectedDeltaMinor === null || row.expectedCurrency === null) return null;
  return {
    metric: row.expectedMetric as TDecisionMetric,
    delta_minor: toJsonAmount(row.expectedDeltaMinor, "expected.delta_minor"),
    currency: row.expectedCurrency,
    window_days: (row.expectedWindowDays ?? 30) as TDecisionExpectation["window_days"],
  };
}

export function toDecisionDto(row: AgentDecision): TAgentDecision {
  return {
    id: row.id,
    agent_id: row.agentId,
    ...toScopeDto(row),
    title: row.title,
    rationale: row.rationale,
    amount_minor: toJsonAmount(row.amountMinor, "amount_minor"),
    currency: row.currency,
    occurred_on: utcDayOf(row.occurredOn),
    expected: expectationOf(row),
    approval_id: row.approvalId,
    ref: row.refType !== null && row.refId !== null ? { type: row.refType, id: row.refId } : null,
    reason: row.reason,
    event_id: row.eventId,
    created_at: row.createdAt.toISOString(),
  };
}
