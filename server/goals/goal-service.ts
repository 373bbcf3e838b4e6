// Goals (pinned-wave2 §3.6): the owner's targets for a business, a project or the personal
// finances. Stored: the scope, kind, name, target and status; the progress is computed on read
// (goal-progress.ts). The status moves only when the owner moves it: active ↔ achieved,
// active ↔ abandoned; achieved ↔ abandoned is a 409. kind and scope never change.
import { utcDayOf, utcMidnightOf } from "../../lib/days";
import type { TCaller } from "../auth/caller";
import { auditCaller } from "../audit/audit-service";
import type { TDbOrTx } from "../db/client";
import type { Goal, Prisma } from "../db/generated/client";
import { inTransaction } from "../db/transaction";
import { AppError } from "../errors/app-error";
import { exactMinorOrNull } from "../fx/money";
import { readOwnerDay, type TOwnerDay } from "../read-models/period";
import { resolveReadScope } from "../read-models/scope";
import { isCurrencyCode } from "../../lib/currencies";
import { decodeCursor, pageArgs, toPage, type TPageQuery } from "../shared/pagination";
import { resolveScope, toScopeDto } from "../shared/scope";
import {
  isMoneyGoalKind,
  type TCreateGoalInput,
  type TGoal,
  type TGoalKind,
  type TGoalListQuery,
  type TGoalProgress,
  type TGoalStatus,
  type TUpdateGoalInput,
} from "./goal.schema";
import { goalProgressReader } from "./goal-progress";

type TIssue = { path: string; message: string };

/** One 400 naming every field that is wrong (the schema's issues come before, in their own 400). */
function throwIfIssues(issues: TIssue[]): void {
  if (issues.length === 0) return;
  throw new AppError("validation_error", `${issues[0]!.path}: ${issues[0]!.message}`, { details: { issues } });
}

/** The checks the schema cannot make: a known currency, a target date not before the owner's today. */
function targetIssues(input: { currency?: string | null; target_date?: string | null }, today: string): TIssue[] {
  const issues: TIssue[] = [];
  if (input.currency && !isCurrencyCode(input.currency)) {
    issues.push({ path: "currency", message: `${input.currency} is not an ISO 4217 currency code` });
  }
  if (input.target_date && input.target_date < today) {
    issues.push({ path: "target_date", message: `must not be before today (${today})` });
  }
  return issues;
}

export function toGoalDto(row: Goal, progress: TGoalProgress | null): TGoal {
  return {
    id: row.id,
    ...toScopeDto(row),
    kind: row.kind as TGoalKind,
    name: row.name,
    target_amount_minor: exactMinorOrNull(row.targetAmountMinor),
    currency: row.currency,
    target_days: row.targetDays,
    target_date: row.targetDate ? utcDayOf(row.targetDate) : null,
    status: row.status as TGoalStatus,
    progress,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** Goals with their progress, read at one instant (each distinct read model call once). */
async function toGoalDtos(db: TDbOrTx, day: TOwnerDay, rows: Goal[]): Promise<TGoal[]> {
  const progressOf = goalProgressReader(db, day);
  const goals: TGoal[] = [];
  // One goal after the other: a page of goals never opens more than one read model's queries at once.
  for (const row of rows) goals.push(toGoalDto(row, await progressOf(row)));
  return goals;
}

async function toGoalDtoNow(db: TDbOrTx, caller: TCaller, row: Goal): Promise<TGoal> {
  const [goal] = await toGoalDtos(db, await readOwnerDay(db, caller.ownerId, { now: () => caller.now }), [row]);
  return goal!;
}

async function requireGoal(db: TDbOrTx, ownerId: string, id: string): Promise<Goal> {
  const row = await db.goal.findFirst({ where: { id, ownerId } });
  if (!row) throw AppError.notFound("goal");
  return row;
}

/** The audit's picture of a goal: what it aims at, never its progress. */
function goalDetails(row: Goal): Prisma.InputJsonValue {
  const dto = toGoalDto(row, null);
  return {
    kind: dto.kind,
    name: dto.name,
    ...toScopeDto(row),
    target_amount_minor: dto.target_amount_minor,
    currency: dto.currency,
    target_days: dto.target_days,
    target_date: dto.target_date,
    status: dto.status,
  };
}

export async function createGoal(db: TDbOrTx, caller: TCaller, input: TCreateGoalInput): Promise<TGoal> {
  const day = await readOwnerDay(db, caller.ownerId, { now: () => caller.now });
  throwIfIssues(targetIssues(input, day.today));
  const money = isMoneyGoalKind(input.kind);
  const row = await inTransaction(db, async (tx) => {
    const scope = await resolveScope(tx, caller.ownerId, input);
    const created = await tx.goal.create({
      data: {
        ownerId: caller.ownerId,
        ...scope,
        kind: input.kind,
        name: input.name,
        targetAmountMinor: money ? BigInt(input.target_amount_minor!) : null,
        currency: money ? input.currency! : null,
        targetDays: money ? null : input.target_days!,
        targetDate: input.target_date ? utcMidnightOf(input.target_date) : null,
        // The request's clock: "since creation" counts from the day the owner created it.
        createdAt: caller.now,
        updatedAt: caller.now,
      },
    });
    await auditCaller(tx, caller, "goal.created", { type: "goal", id: created.id }, goalDetails(created));
    return created;
  });
  const [goal] = await toGoalDtos(db, day, [row]);
  return goal!;
}

export async function getGoal(db: TDbOrTx, caller: TCaller, id: string): Promise<TGoal> {
  return toGoalDtoNow(db, caller, await requireGoal(db, caller.ownerId, id));
}

/** A status change the owner may make: to or from active; achieved ↔ abandoned is not one. */
export function isAllowedTransition(from: TGoalStatus, to: TGoalStatus): boolean {
  return from === to || from === "active" || to === "active";
}

export async function updateGoal(db: TDbOrTx, caller: TCaller, id: string, input: TUpdateGoalInput): Promise<TGoal> {
  const day = await readOwnerDay(db, caller.ownerId, { now: () => caller.now });
  const row = await inTransaction(db, async (tx) => {
    const issues = targetIssues(input, day.today);
    const found = await tx.goal.findFirst({ where: { id, ownerId: caller.ownerId } });
    // Validation before the resource (§1.3): what is wrong whatever the goal answers 400 first.
    throwIfIssues(found ? [] : issues);
    if (!found) throw AppError.notFound("goal");
    const before = found;
    const kind = before.kind as TGoalKind;
    if (isMoneyGoalKind(kind)) {
      if (input.target_days !== undefined) issues.push({ path: "target_days", message: "is only for runway goals" });
    } else {
      for (const field of ["target_amount_minor", "currency"] as const) {
        if (input[field] !== undefined) issues.push({ path: field, message: "is only for save, revenue and spend_cap goals" });
      }
    }
    throwIfIssues(issues);

    const from = before.status as TGoalStatus;
    if (input.status !== undefined && !isAllowedTransition(from, input.status)) {
      throw new AppError(
        "state_conflict",
        `A goal moves between active and ${input.status}, not from ${from} to ${input.status}.`,
        {
          details: { status: from },
        },
      );
    }
    const data: Prisma.GoalUpdateManyMutationInput = {
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.target_amount_minor !== undefined ? { targetAmountMinor: BigInt(input.target_amount_minor) } : {}),
      ...(input.currency !== undefined ? { currency: input.currency } : {}),
      ...(input.target_days !== undefined ? { targetDays: input.target_days } : {}),
      ...(input.target_date !== undefined ? { targetDate: input.target_date ? utcMidnightOf(input.target_date) : null } : {}),
      ...(input.status !== undefined ? { status: input.status } : {}),
      updatedAt: caller.now,
    };
    // Conditional on the status read: a concurrent change of it makes this one re-check (409).
    const { count } = await tx.goal.updateMany({ where: { id, ownerId: caller.ownerId, status: from }, data });
    if (count === 0) {
      const now = await requireGoal(tx, caller.ownerId, id);
      throw new AppError("state_conflict", "The goal's status changed meanwhile; read it again.", {
        details: { status: now.status },
      });
    }
    const after = await requireGoal(tx, caller.ownerId, id);
    await auditCaller(
      tx,
      caller,
      "goal.updated",
      { type: "goal", id },
      {
        fields: Object.keys(input).filter((key) => input[key as keyof TUpdateGoalInput] !== undefined),
        ...(after.status !== from ? { status: { from, to: after.status } } : {}),
      },
    );
    return after;
  });
  const [goal] = await toGoalDtos(db, day, [row]);
  return goal!;
}

/** Removes the goal for good; a replay with the same Idempotency-Key answers the same (REST layer), a new key 404. */
export async function deleteGoal(db: TDbOrTx, caller: TCaller, id: string): Promise<{ id: string; deleted: true }> {
  return inTransaction(db, async (tx) => {
    const row = await requireGoal(tx, caller.ownerId, id);
    const { count } = await tx.goal.deleteMany({ where: { id: row.id, ownerId: caller.ownerId } });
    if (count === 0) throw AppError.notFound("goal");
    await auditCaller(tx, caller, "goal.deleted", { type: "goal", id }, goalDetails(row));
    return { id, deleted: true as const };
  });
}

/**
 * GET /v1/goals: always an empty list in this version (the contract says so), after the query
 * is validated like any list's: a foreign or unknown business or project answers 404, a
 * cursor this API did not issue 400.
 */
export async function findGoals(db: TDbOrTx, ownerId: string, query: TGoalListQuery) {
  if (query.cursor) decodeCursor(query.cursor);
  await resolveReadScope(db, ownerId, query);
  return { data: [] as TGoal[], page: { next_cursor: null, has_more: false } };
}

/** The panel's list of every goal of the owner (not part of /v1), newest first, with progress. */
export async function findOwnerGoals(db: TDbOrTx, caller: TCaller, query: TPageQuery) {
  const args = pageArgs(query);
  const rows = await db.goal.findMany({ ...args, where: { ownerId: caller.ownerId, ...args.where } });
  const { rows: kept, page } = toPage(rows, query.limit);
  const day = await readOwnerDay(db, caller.ownerId, { now: () => caller.now });
  return { data: await toGoalDtos(db, day, kept), page };
}
