// The write pipeline of the contract (Conventions 3–5): after authentication and idempotency
// (the REST layer) and the scope (check-access.ts), a write checks the agent's reason, the
// resource (404 unless the owner's), a grant covering it (403 scope_denied, audited), the
// grant's level and limits, then either executes (201) or is held for the owner's approval
// (202). The owner's own writes simply execute.
import type { TAgentActor } from "../auth/actor";
import { callerOf, type TCaller } from "../auth/caller";
import { resourceLabel, type TGrant } from "../auth/grants";
import { recordAudit } from "../audit/audit-service";
import { createApproval, recordApprovalResult } from "../approvals/approval-service";
import { requireReason } from "../approvals/reason";
import type { TAgentWrite } from "../approvals/write-registry";
import type { TDbOrTx, TTx } from "../db/client";
import { inTransaction } from "../db/transaction";
import { AppError } from "../errors/app-error";
import type { TContext } from "../trpc/context";
import { requireGrant } from "./check-access";
import { hasLimits, LimitExceededError, reserveWithinLimits } from "./limits";

type TAmount = { amountMinor: bigint; currency: string };

export type TWriteOutcome<TOutput> =
  { kind: "executed"; data: TOutput } | { kind: "pending"; approval: { id: string; status: "pending" } };

export async function performWrite<TInput extends { reason?: string }, TOutput>(
  ctx: TContext,
  write: TAgentWrite<TInput, TOutput>,
  input: TInput,
): Promise<TWriteOutcome<TOutput>> {
  const caller = callerOf(ctx);
  if (caller.actor.type === "owner") {
    const data = await inTransaction(ctx.db, async (tx) => {
      const approval = write.recordApproval ? await autoApprove(tx, caller, write, input, "owner", null, null) : null;
      return finish(
        tx,
        caller,
        approval,
        await write.execute(tx, caller, input, approval === null ? null : { id: approval, limitChecked: null }),
      );
    });
    return { kind: "executed", data };
  }
  return performAgentWrite(ctx.db, caller, caller.actor, write, input);
}

async function performAgentWrite<TInput extends { reason?: string }, TOutput>(
  db: TDbOrTx,
  caller: TCaller,
  agent: TAgentActor,
  write: TAgentWrite<TInput, TOutput>,
  input: TInput,
): Promise<TWriteOutcome<TOutput>> {
  const reason = requireReason(input.reason);
  // Unknown or another owner's: 404 (resourceOf). The owner's, but no grant covers it: 403, audited.
  const resource = await write.resourceOf(db, caller.ownerId, input, caller.now);
  const grant = await requireGrant(agent, write.scope, resource, {
    operation: write.action,
    db: () => db,
    requestId: caller.requestId,
  });
  const amountIn = async (from: TDbOrTx): Promise<TAmount | null> =>
    (await write.amountOf?.(from, caller.ownerId, input)) ?? null;
  const hold = (trigger: "level_recommend" | "over_limit", amount: TAmount | null) =>
    holdForApproval(db, caller, agent, write, input, reason, trigger, amount);

  if (grant.level === "recommend") return hold("level_recommend", await amountIn(db));

  // Counted in the transaction that counts it against the limits, so that whatever the amount
  // is computed from (a campaign's known budget) is read under the same lock as the counter.
  let counted: TAmount | null = null;
  try {
    const data = await inTransaction(db, async (tx) => {
      const amount = (counted = await amountIn(tx));
      if (amount && hasLimits(grant)) {
        // Without an exchange rate there is no honest way to count another currency: consent.
        if (amount.currency !== grant.currency)
          throw new LimitExceededError("day", grant.dailyLimitMinor ?? grant.monthlyLimitMinor ?? 0n);
        // The request's clock, as every "today" of a write (and as agents/me reads the counters).
        await reserveWithinLimits(tx, grant, amount.amountMinor, caller.now);
      }
      const approval = write.recordApproval
        ? await autoApprove(tx, caller, write, input, "within_limits", agent.agentId, amount, reason)
        : null;
      return finish(
        tx,
        caller,
        approval,
        await write.execute(tx, caller, input, approval === null ? null : { id: approval, limitChecked: approval }),
      );
    });
    return { kind: "executed", data };
  } catch (error) {
    if (!(error instanceof LimitExceededError)) throw error;
    return overLimit(db, caller, grant, error, resourceLabel(resource), () => hold("over_limit", counted));
  }
}

/** The auto_approved approval an executed write records (recordApproval), in its transaction. */
async function autoApprove<TInput extends { reason?: string }>(
  tx: TTx,
  caller: TCaller,
  write: TAgentWrite<TInput, unknown>,
  input: TInput,
  trigger: "owner" | "within_limits",
  agentId: string | null,
  amount: TAmount | null,
  reason: string | null = null,
): Promise<string> {
  const approval = await createApproval(tx, caller, {
    kind: "write",
    action: write.action,
    agentId,
    reason: reason ?? input.reason ?? null,
    trigger,
    params: input,
    amountMinor: amount?.amountMinor ?? null,
    currency: amount?.currency ?? null,
    status: "auto_approved",
  });
  return approval.id;
}

/** Stores what the auto-approved write answered on its approval, as an approved held write's is. */
async function finish<TOutput>(tx: TTx, caller: TCaller, approvalId: string | null, data: TOutput): Promise<TOutput> {
  if (approvalId) await recordApprovalResult(tx, caller.ownerId, approvalId, data);
  return data;
}

async function overLimit<T>(
  db: TDbOrTx,
  caller: TCaller,
  grant: TGrant,
  error: LimitExceededError,
  resource: string,
  hold: () => Promise<T>,
): Promise<T> {
  if (grant.overLimit === "approval") return hold();
  await recordAudit(db, {
    ownerId: caller.ownerId,
    actor: caller.actor,
    action: "access.denied",
    requestId: caller.requestId,
    details: { code: "limit_exceeded", scope: grant.scope, resource, period: error.period },
  });
  throw new AppError("limit_exceeded", error.message, {
    details: { period: error.period, limit_minor: Number(error.limitMinor), currency: grant.currency },
  });
}

async function holdForApproval<TInput extends { reason?: string }, TOutput>(
  db: TDbOrTx,
  caller: TCaller,
  agent: TAgentActor,
  write: TAgentWrite<TInput, TOutput>,
  input: TInput,
  reason: string,
  trigger: "level_recommend" | "over_limit",
  amount: TAmount | null,
): Promise<TWriteOutcome<TOutput>> {
  const approval = await createApproval(db, caller, {
    kind: "write",
    action: write.action,
    agentId: agent.agentId,
    reason,
    trigger,
    params: input,
    amountMinor: amount?.amountMinor ?? null,
    currency: amount?.currency ?? null,
  });
  return { kind: "pending", approval: { id: approval.id, status: "pending" } };
}

/**
 * The procedure's answer: the written data (201), or the pending approval, which the REST layer
 * answers with 202 (the meta's `otherSuccess` with a pending_approval body).
 */
export function writeResponse<TOutput>(outcome: TWriteOutcome<TOutput>) {
  if (outcome.kind === "pending") {
    return { data: { approval: outcome.approval } };
  }
  return { data: outcome.data };
}
