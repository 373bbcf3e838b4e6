// Approvals: what waits for the owner. Deciding is one guarded transition (pending → decided)
// in the same transaction as what the decision does, so an approved write runs exactly once.
import type { TAgentActor } from "../auth/actor";
import type { TCaller } from "../auth/caller";
import { auditCaller } from "../audit/audit-service";
import { z } from "zod";
import { addGrant, assertGrantResources } from "../agents/agent-service";
import { ZGrant } from "../agents/agent.schema";
import type { TDbOrTx, TTx } from "../db/client";
import type { Approval, Prisma } from "../db/generated/client";
import { inTransaction } from "../db/transaction";
import { approvalActionPhrase } from "../../lib/approval-words";
import { formatMinor } from "../../lib/money";
import { createNotifications, type TNewNotification } from "../notifications/notification-outbox";
import { resolveNotificationsAbout } from "../notifications/resolve-notifications";
import { connectRequestOutcome } from "../integrations/integration-service";
import { AppError, isAppError } from "../errors/app-error";
import { pageArgs, toPage, type TPageQuery } from "../shared/pagination";
import { toAppError } from "../errors/to-app-error";
import { APPROVAL_KINDS, APPROVAL_STATUSES, APPROVAL_TRIGGERS, ZDataRequestInput, type TApproval } from "./approval.schema";
import { findAgentWrite } from "./write-registry";
import { parseState } from "../shared/parse-state";

export type TNewApproval = {
  kind: "request" | "write";
  action: string;
  agentId: string | null;
  reason: string | null;
  trigger: TApproval["trigger"];
  params: Record<string, unknown>;
  amountMinor?: bigint | null;
  currency?: string | null;
  status?: "pending" | "auto_approved";
};

export function toApprovalDto(row: Approval): TApproval {
  return {
    id: row.id,
    kind: parseState(APPROVAL_KINDS, row.kind),
    action: row.action,
    status: parseState(APPROVAL_STATUSES, row.status),
    agent_id: row.agentId,
    reason: row.reason,
    trigger: parseState(APPROVAL_TRIGGERS, row.trigger),
    params: (row.params ?? {}) as Record<string, unknown>,
    amount_minor: row.amountMinor === null ? null : Number(row.amountMinor),
    currency: row.currency,
    result: row.result ?? null,
    decision_note: row.decisionNote,
    ad_budget_effect: null,
    decided_at: row.decidedAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

const PENDING_BECAUSE: Record<string, string> = {
  level_recommend: "the agent may only recommend this",
  over_limit: "it is over the agent's limit",
  request: "the agent asks for it",
};

/**
 * approval.pending (warning): what waits (in words, not its action code), why, for how much (in
 * the owner's locale, as their panel shows money), and the agent's reason.
 */
function pendingApprovalNotification(row: Approval, locale: string): TNewNotification {
  const amount =
    row.amountMinor !== null && row.currency && row.amountMinor <= BigInt(Number.MAX_SAFE_INTEGER)
      ? ` Amount: ${formatMinor(Number(row.amountMinor), row.currency, locale)}.`
      : "";
  const because = PENDING_BECAUSE[row.trigger] ?? row.trigger;
  return {
    code: "approval.pending",
    severity: "warning",
    title: `Waiting for your approval: ${approvalActionPhrase(row.action)}`,
    body: `An approval waits for your decision (${because}).${amount}${row.reason ? ` Reason: ${row.reason}` : ""}`,
    ref: { type: "approval", id: row.id },
  };
}

/** JSON-safe copy of a body (BigInt-free, undefined dropped). */
function toJson(value: unknown): Prisma.InputJsonObject {
  return JSON.parse(JSON.stringify(value ?? {})) as Prisma.InputJsonObject;
}

export async function createApproval(db: TDbOrTx, caller: TCaller, input: TNewApproval): Promise<TApproval> {
  return inTransaction(db, async (tx) => {
    const row = await tx.approval.create({
      data: {
        ownerId: caller.ownerId,
        agentId: input.agentId,
        kind: input.kind,
        action: input.action,
        status: input.status ?? "pending",
        reason: input.reason,
        trigger: input.trigger,
        procedure: input.kind === "write" ? input.action : null,
        params: toJson(input.params),
        amountMinor: input.amountMinor ?? null,
        currency: input.currency ?? null,
        requestId: caller.requestId,
        decidedAt: input.status === "auto_approved" ? new Date() : null,
      },
    });
    await auditCaller(
      tx,
      caller,
      input.status === "auto_approved" ? "approval.auto_approved" : "approval.created",
      { type: "approval", id: row.id },
      { kind: input.kind, action: input.action, trigger: input.trigger },
    );
    // The owner learns that something waits for them, in the same transaction (pinned-wave2 §4.1).
    if (row.status === "pending") {
      const owner = await tx.owner.findUnique({ where: { id: caller.ownerId }, select: { locale: true } });
      const notification = pendingApprovalNotification(row, owner?.locale ?? "en-US");
      await createNotifications(tx, caller.ownerId, [notification], caller.now);
    }
    return toApprovalDto(row);
  });
}

/** What an auto-approved write answered, stored as an approved write's result ({ status, data }). */
export async function recordApprovalResult(tx: TTx, ownerId: string, id: string, data: unknown): Promise<void> {
  await tx.approval.updateMany({ where: { id, ownerId }, data: { result: toJson({ status: "succeeded", data }) } });
}

export async function findApprovals(
  db: TDbOrTx,
  ownerId: string,
  query: TPageQuery & { kind?: string; status?: string },
  now: Date,
) {
  const args = pageArgs(query);
  const rows = await db.approval.findMany({
    ...args,
    where: { ownerId, kind: query.kind, status: query.status, ...args.where },
  });
  const { rows: kept, page } = toPage(rows, query.limit);
  return { data: await withEffects(db, ownerId, kept, now), page };
}

export async function getApproval(db: TDbOrTx, ownerId: string, id: string, now: Date): Promise<TApproval> {
  const row = await db.approval.findFirst({ where: { id, ownerId } });
  if (!row) throw AppError.notFound("approval");
  return (await withEffects(db, ownerId, [row], now))[0]!;
}

/**
 * The approvals, each pending held write with what it would commit if approved now (its write's
 * effectsOf, one call per action for the whole page). Params its write no longer accepts show none.
 */
async function withEffects(db: TDbOrTx, ownerId: string, rows: readonly Approval[], now: Date): Promise<TApproval[]> {
  const dtos = rows.map(toApprovalDto);
  const held = new Map<string, Array<{ index: number; input: unknown }>>();
  rows.forEach((row, index) => {
    const write = row.status === "pending" && row.kind === "write" ? findAgentWrite(row.action) : undefined;
    const parsed = write?.effectsOf ? write.schema.safeParse(row.params ?? {}) : null;
    if (parsed?.success) held.set(row.action, [...(held.get(row.action) ?? []), { index, input: parsed.data }]);
  });
  for (const [action, items] of held) {
    const effects = await findAgentWrite(action)!.effectsOf!(
      db,
      ownerId,
      items.map((item) => item.input),
      now,
    );
    items.forEach((item, i) => (dtos[item.index]!.ad_budget_effect = effects[i] ?? null));
  }
  return dtos;
}

/** Moves a pending approval to `status`; a second decision (even a concurrent one) is 409. */
async function claimPending(
  tx: TTx,
  ownerId: string,
  id: string,
  status: string,
  note: string | undefined,
  allowKinds: string[],
) {
  const row = await tx.approval.findFirst({ where: { id, ownerId } });
  if (!row) throw AppError.notFound("approval");
  if (!allowKinds.includes(row.kind)) {
    throw new AppError("state_conflict", "Only requests can be dismissed; reject a held write instead.");
  }
  const { count } = await tx.approval.updateMany({
    where: { id, ownerId, status: "pending" },
    data: { status, decidedAt: new Date(), decisionNote: note ?? null },
  });
  if (count === 0)
    throw new AppError("state_conflict", `This approval is already ${row.status === "pending" ? "decided" : row.status}.`);
  // Decided: what told the owner it waits no longer waits (nor counts in the bell), in this same transaction.
  await resolveNotificationsAbout(tx, ownerId, { type: "approval", id }, new Date());
  return row;
}

/** The agent a held write runs as (its grants no longer matter: the owner consented). */
function agentCaller(caller: TCaller, agentId: string): TCaller {
  const actor: TAgentActor = { type: "agent", ownerId: caller.ownerId, agentId, tokenKey: "approval", grants: [] };
  return { ownerId: caller.ownerId, actor, requestId: caller.requestId, now: caller.now };
}

type TOverride = Record<string, unknown> | undefined;

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** 400 naming each override field the approval's kind does not have (as the override's other issues do; `""` for an empty key). */
function onlyFields(override: TOverride, allowed: readonly string[]): void {
  const extra = Object.keys(override ?? {}).filter((key) => !allowed.includes(key));
  const only = allowed.length === 0 ? "nothing can be overridden for this kind" : `only ${allowed.join(", ")}`;
  const [first, ...rest] = extra.map((key) => ({
    path: key === "" ? '""' : key,
    message: `cannot be overridden; ${only}`,
  }));
  if (first) throw AppError.invalidFields([first, ...rest]);
}

/**
 * A grant_scope request's grant after the owner's override: the override's grant fields
 * replace the requested ones (null clears a limit), and the result is validated by the same
 * schema as a permission request's grant and checked against the owner's resources.
 */
async function overriddenGrant(tx: TTx, ownerId: string, params: Record<string, unknown>, override: TOverride) {
  onlyFields(override, ["grant"]);
  const patch = override?.grant;
  if (patch !== undefined && !isPlainObject(patch)) throw AppError.invalidField("grant", "must be an object of grant fields");
  const stored = isPlainObject(params.grant) ? params.grant : {};
  const parsed = z.object({ grant: ZGrant }).safeParse({ grant: { ...stored, ...patch } });
  if (!parsed.success) throw toAppError(parsed.error);
  try {
    await assertGrantResources(tx, ownerId, [parsed.data.grant]);
  } catch (error) {
    if (isAppError(error) && error.code === "validation_error") throw AppError.invalidField("grant.resource", "no such resource");
    throw error;
  }
  return parsed.data.grant;
}

/** A data request's terms after the owner's override (provider, description), validated like the request. */
function overriddenTerms(params: Record<string, unknown>, override: TOverride) {
  onlyFields(override, ["provider", "description"]);
  const { provider, description } = params;
  const parsed = ZDataRequestInput.pick({ provider: true, description: true }).safeParse({
    provider: provider ?? undefined,
    description,
    ...override,
  });
  if (!parsed.success) throw toAppError(parsed.error);
  return { provider: parsed.data.provider ?? null, description: parsed.data.description };
}

export async function approve(
  db: TDbOrTx,
  caller: TCaller,
  id: string,
  input: { decision_note?: string; params_override?: Record<string, unknown> },
): Promise<TApproval> {
  return inTransaction(db, async (tx) => {
    const row = await claimPending(tx, caller.ownerId, id, "approved", input.decision_note, ["request", "write"]);
    const stored = (row.params ?? {}) as Record<string, unknown>;
    const override = input.params_override;
    // What the approval does is exactly what its stored params say after the override: the
    // params are validated, stored, and acted on as one value.
    let params: Record<string, unknown> = stored;
    let result: unknown = null;
    // What the approval did: succeeded, or (a connect request) what remains for the owner.
    let outcome: { status: string; data: unknown } | null = null;
    let amount: { amountMinor: bigint; currency: string } | null = null;
    if (row.kind === "write") {
      const write = findAgentWrite(row.action);
      if (!write) throw new AppError("internal_error", `No write is registered for ${row.action}.`);
      params = { ...stored, ...override };
      const parsed = write.schema.safeParse(params);
      if (!parsed.success) throw toAppError(parsed.error);
      const actor = row.agentId ? agentCaller(caller, row.agentId) : caller;
      // What it commits is counted again from what is known now (and the override), as the write does.
      amount = write.amountOf ? await write.amountOf(tx, caller.ownerId, parsed.data) : null;
      // A failure here rolls the whole decision back: the approval stays pending.
      result = await write.execute(tx, actor, parsed.data, write.recordApproval ? { id: row.id, limitChecked: null } : null);
    } else if (row.action === "grant_scope" && row.agentId) {
      const grant = await overriddenGrant(tx, caller.ownerId, stored, override);
      params = { ...stored, grant };
      await addGrant(tx, caller.ownerId, row.agentId, grant);
      result = { granted: grant };
    } else if (row.action === "connect_integration" || row.action === "provide_data") {
      params = { ...stored, ...overriddenTerms(stored, override) };
      if (row.action === "connect_integration") {
        outcome = await connectRequestOutcome(tx, caller.ownerId, params.provider as string | null);
      }
    } else {
      onlyFields(override, []);
    }
    outcome ??= { status: "succeeded", data: result };
    const updated = await tx.approval.update({
      where: { id },
      data: {
        result: toJson(outcome),
        params: override ? toJson(params) : undefined,
        ...(amount ? { amountMinor: amount.amountMinor, currency: amount.currency } : {}),
      },
    });
    await auditCaller(
      tx,
      caller,
      "approval.approved",
      { type: "approval", id },
      { action: row.action, outcome: outcome.status, overridden: Object.keys(override ?? {}) },
    );
    return toApprovalDto(updated);
  });
}

export async function decide(
  db: TDbOrTx,
  caller: TCaller,
  id: string,
  decision: "rejected" | "dismissed",
  input: { decision_note?: string },
): Promise<TApproval> {
  return inTransaction(db, async (tx) => {
    await claimPending(
      tx,
      caller.ownerId,
      id,
      decision,
      input.decision_note,
      decision === "dismissed" ? ["request"] : ["request", "write"],
    );
    await auditCaller(tx, caller, `approval.${decision}`, { type: "approval", id });
    return getApproval(tx, caller.ownerId, id, caller.now);
  });
}
