// The owner's plan (pinned-wave2 §5.2): the Plan resource, changing plans (the POST table),
// the upgrade preview, trial expiry (lazily here, and by the plan-expiry job), and the two
// checks of the write path that the tRPC procedure builders make (server/trpc/init.ts):
//   assertPlanWritable   an expired plan refuses writes (403 plan_expired) unless exempt;
//   withinPlanLimit      a create counted against its limit under a lock on the owner row, in
//                        the write's transaction (403 plan_limit_exceeded).
import { Prisma } from "../db/generated/client";
import { recordAudit } from "../audit/audit-service";
import type { TCaller } from "../auth/caller";
import type { TDbOrTx, TTx } from "../db/client";
import { inTransaction, type TTransactionLimits } from "../db/transaction";
import { AppError } from "../errors/app-error";
import { createNotifications, type TNewNotification } from "../notifications/notification-outbox";
import {
  exceededLimits,
  isPlanName,
  limitsOf,
  PLAN_DISPLAY_NAMES,
  PLAN_LIMIT_KEYS,
  PLAN_LIMIT_UNITS,
  PLAN_NAMES,
  TRIAL_DAYS,
  TRIAL_ENDING_NOTICE_DAYS,
  type TExceeded,
  type TPlanLimitKey,
  type TPlanName,
  type TPlanStatus,
} from "./plan-limits";
import type { TPlan, TUpgradePreview } from "./plan.schema";

const DAY_MS = 24 * 60 * 60 * 1000;

type TOwnerPlanRow = { plan: string; planStatus: string; trialEndsAt: Date | null; trialUsed: boolean };
const PLAN_FIELDS = { plan: true, planStatus: true, trialEndsAt: true, trialUsed: true } as const;

/** The status as of `now`: a trial past its end is expired even before anything stored it. */
export function effectiveStatus(row: Pick<TOwnerPlanRow, "planStatus" | "trialEndsAt">, now: Date): TPlanStatus {
  if (row.planStatus === "trialing" && row.trialEndsAt && row.trialEndsAt.getTime() <= now.getTime()) return "expired";
  return row.planStatus === "trialing" || row.planStatus === "expired" ? row.planStatus : "active";
}

function planNameOf(plan: string): TPlanName {
  return isPlanName(plan) ? plan : "free";
}

async function requirePlanRow(db: TDbOrTx, ownerId: string, lock: boolean): Promise<TOwnerPlanRow> {
  if (lock) {
    // NO KEY UPDATE: other writers' foreign-key checks (KEY SHARE) on the owner stay free.
    const rows = await db.$queryRaw<
      Array<{ plan: string; plan_status: string; trial_ends_at: Date | null; trial_used: boolean }>
    >`
      SELECT plan, plan_status, trial_ends_at, trial_used FROM owners WHERE id = ${ownerId}::uuid FOR NO KEY UPDATE`;
    const row = rows[0];
    if (!row) throw new AppError("unauthenticated", "The owner of this credential no longer exists.");
    return { plan: row.plan, planStatus: row.plan_status, trialEndsAt: row.trial_ends_at, trialUsed: row.trial_used };
  }
  const row = await db.owner.findUnique({ where: { id: ownerId }, select: PLAN_FIELDS });
  if (!row) throw new AppError("unauthenticated", "The owner of this credential no longer exists.");
  return row;
}

// --- usage ---

const USAGE_SQL: Record<TPlanLimitKey, (ownerId: string, from: Date, to: Date) => Prisma.Sql> = {
  businesses: (o) => Prisma.sql`SELECT count(*)::int FROM businesses WHERE owner_id = ${o}::uuid`,
  projects: (o) => Prisma.sql`SELECT count(*)::int FROM projects WHERE owner_id = ${o}::uuid`,
  agents: (o) => Prisma.sql`SELECT count(*)::int FROM agents WHERE owner_id = ${o}::uuid AND status <> 'revoked'`,
  integrations: (o) =>
    Prisma.sql`SELECT count(*)::int FROM integrations WHERE owner_id = ${o}::uuid
                 AND status IN ('active', 'pending') AND provider <> 'manual_import'`,
  events_per_month: (o, from, to) =>
    Prisma.sql`SELECT count(*)::int FROM financial_events WHERE owner_id = ${o}::uuid AND source_type = 'MANUAL'
                 AND created_at >= ${from}::timestamptz AND created_at < ${to}::timestamptz`,
  imports_per_month: (o, from, to) =>
    // A reverted import was confirmed: it still counts (issue 32), so a revert gives no import back.
    Prisma.sql`SELECT count(*)::int FROM imports WHERE owner_id = ${o}::uuid AND status IN ('confirmed', 'reverted')
                 AND confirmed_at >= ${from}::timestamptz AND confirmed_at < ${to}::timestamptz`,
};

/** The UTC month of `now`: [first instant, first instant of the next). */
function utcMonth(now: Date): [Date, Date] {
  return [
    new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)),
    new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)),
  ];
}

/** What the owner uses of each limit now (one statement). */
export async function countUsage(
  db: TDbOrTx,
  ownerId: string,
  now: Date,
  keys: readonly TPlanLimitKey[] = PLAN_LIMIT_KEYS,
): Promise<Record<TPlanLimitKey, number>> {
  const [from, to] = utcMonth(now);
  const columns = keys.map((key) => Prisma.sql`(${USAGE_SQL[key](ownerId, from, to)}) AS ${Prisma.raw(`"${key}"`)}`);
  const [row] = await db.$queryRaw<Array<Record<TPlanLimitKey, number>>>`SELECT ${Prisma.join(columns)}`;
  return Object.fromEntries(PLAN_LIMIT_KEYS.map((key) => [key, Number(row?.[key] ?? 0)])) as Record<TPlanLimitKey, number>;
}

// --- the write path's two checks ---

/** 403 plan_expired when the owner's trial has ended (checked before the write's input is parsed). */
export async function assertPlanWritable(db: TDbOrTx, ownerId: string, now: Date): Promise<void> {
  const row = await requirePlanRow(db, ownerId, false);
  if (effectiveStatus(row, now) !== "expired") return;
  throw new AppError("plan_expired", "The plan's trial has ended: choose a plan (POST /v1/plan) to write again.", {
    details: { plan: planNameOf(row.plan), expired_at: row.trialEndsAt?.toISOString() ?? null },
  });
}

/**
 * Runs `write` (a create counted by `limit`) in one transaction with the owner's row locked
 * first, then counts: more than the plan allows, and more than before the write → 403
 * plan_limit_exceeded, and the write is rolled back. The lock is taken before anything else of
 * the write (the owner-first lock order of lockBaseCurrency's writers), so concurrent creates at
 * the limit take turns and each counts what the previous ones committed: exactly one takes the
 * last slot. Counting after the write keeps the contract's order: validation (400) and the
 * resource (404) answer first. An unlimited plan takes no lock and counts nothing.
 */
export async function withinPlanLimit<T>(
  db: TDbOrTx,
  call: { ownerId: string; limit: TPlanLimitKey; now: Date; limits?: TTransactionLimits },
  write: (db: TDbOrTx) => Promise<T>,
  /** A write that failed (answered its own error) is not counted, and keeps what it wrote. */
  succeeded: (result: T) => boolean = () => true,
): Promise<T> {
  const { ownerId, limit, now } = call;
  const unlocked = await requirePlanRow(db, ownerId, false);
  if (limitsOf(unlocked.plan)[limit] === null) return write(db);
  return inTransaction(
    db,
    async (tx) => {
      const row = await requirePlanRow(tx, ownerId, true);
      const allowed = limitsOf(row.plan)[limit];
      if (allowed === null) return write(tx);
      const before = (await countUsage(tx, ownerId, now, [limit]))[limit];
      const result = await write(tx);
      if (!succeeded(result)) return result;
      const after = (await countUsage(tx, ownerId, now, [limit]))[limit];
      if (after > allowed && after > before) {
        throw new AppError(
          "plan_limit_exceeded",
          `Your ${PLAN_DISPLAY_NAMES[planNameOf(row.plan)]} plan allows ${allowed} ${PLAN_LIMIT_UNITS[limit]}, and ${before} ` +
            "are in use. Choose another plan in Settings (POST /v1/plan), or remove one first.",
          {
            details: { limit, used: before, allowed, plan: planNameOf(row.plan) },
          },
        );
      }
      return result;
    },
    call.limits,
  );
}

// --- expiry ---

function expiredNotice(plan: string, endedAt: Date): TNewNotification {
  return {
    code: "plan.expired",
    severity: "critical",
    title: `Your ${PLAN_DISPLAY_NAMES[planNameOf(plan)]} trial has ended`,
    body:
      `The trial ended on ${endedAt.toISOString().slice(0, 10)} (UTC). Your records are kept and can be read, and ` +
      `deliveries and imports from your integrations continue, but other changes are refused until you choose a plan ` +
      `(Settings → Plan, or POST /v1/plan): free, if your usage fits its limits.`,
    ref: null,
  };
}

function endingNotice(plan: string, endsAt: Date, now: Date): TNewNotification {
  const days = Math.max(1, Math.ceil((endsAt.getTime() - now.getTime()) / DAY_MS));
  return {
    code: "plan.trial_ending",
    severity: "warning",
    title: `Your ${PLAN_DISPLAY_NAMES[planNameOf(plan)]} trial ends in ${days === 1 ? "a day" : `${days} days`}`,
    body:
      `The trial ends on ${endsAt.toISOString().slice(0, 10)} at ${endsAt.toISOString().slice(11, 16)} UTC. After that, ` +
      `changes are refused until you choose a plan; no payment is possible in this version, so plan to move to free ` +
      `(its limits must fit your usage).`,
    ref: null,
  };
}

type TExpiredRow = { id: string; plan: string; trial_ends_at: Date };

/**
 * Stores `expired` for trials past their end (one owner, or all), with each one's plan.expired
 * notification and audit entry (actor system), in `tx`. The UPDATE claims each owner once.
 */
async function expireTrials(tx: TTx, now: Date, ownerId: string | null): Promise<number> {
  const expired = await tx.$queryRaw<TExpiredRow[]>`
    UPDATE owners SET plan_status = 'expired', updated_at = ${now}::timestamptz
     WHERE plan_status = 'trialing' AND trial_ends_at <= ${now}::timestamptz
       AND (${ownerId}::uuid IS NULL OR id = ${ownerId}::uuid)
    RETURNING id::text, plan, trial_ends_at`;
  for (const row of expired) {
    await createNotifications(tx, row.id, [expiredNotice(row.plan, row.trial_ends_at)], now);
    await recordAudit(tx, {
      ownerId: row.id,
      actor: { type: "system" },
      action: "plan.expired",
      details: { from: row.plan, to: row.plan, plan_status: "expired", trial_ends_at: row.trial_ends_at.toISOString() },
    });
  }
  return expired.length;
}

/** Lazy expiry: the owner's trial, when past its end, is stored as expired now. */
export async function expireOwnerIfDue(db: TDbOrTx, ownerId: string, now: Date): Promise<void> {
  const row = await requirePlanRow(db, ownerId, false);
  if (row.planStatus !== "trialing" || effectiveStatus(row, now) !== "expired") return;
  await inTransaction(db, (tx) => expireTrials(tx, now, ownerId));
}

/**
 * The plan-expiry job (hourly): stores the trials past their end as expired (plan.expired), and
 * announces the trials ending within 3 days (plan.trial_ending, once per trial end: the marker
 * is claimed in the notice's transaction).
 */
export async function runPlanExpiry(db: TDbOrTx, now: Date): Promise<{ expired: number; ending: number }> {
  return inTransaction(db, async (tx) => {
    const expired = await expireTrials(tx, now, null);
    const ending = await tx.$queryRaw<TExpiredRow[]>`
      UPDATE owners SET trial_ending_notified_for = trial_ends_at
       WHERE plan_status = 'trialing' AND trial_ends_at > ${now}::timestamptz
         AND trial_ends_at <= ${new Date(now.getTime() + TRIAL_ENDING_NOTICE_DAYS * DAY_MS)}::timestamptz
         AND trial_ending_notified_for IS DISTINCT FROM trial_ends_at
      RETURNING id::text, plan, trial_ends_at`;
    for (const row of ending) await createNotifications(tx, row.id, [endingNotice(row.plan, row.trial_ends_at, now)], now);
    return { expired, ending: ending.length };
  });
}

// --- the Plan, its changes and their preview ---

function toPlanDto(row: TOwnerPlanRow, usage: Record<TPlanLimitKey, number>, now: Date): TPlan {
  return {
    plan: planNameOf(row.plan),
    plan_status: effectiveStatus(row, now),
    trial_ends_at: row.trialEndsAt?.toISOString() ?? null,
    trial_used: row.trialUsed,
    limits: limitsOf(row.plan),
    usage,
    available_plans: PLAN_NAMES.map((plan) => ({
      plan,
      name: PLAN_DISPLAY_NAMES[plan],
      limits: limitsOf(plan),
      trial_days: TRIAL_DAYS,
      price: null,
    })),
    billing: { checkout: "not_available" },
  };
}

export async function getPlan(db: TDbOrTx, caller: TCaller): Promise<TPlan> {
  await expireOwnerIfDue(db, caller.ownerId, caller.now);
  const row = await requirePlanRow(db, caller.ownerId, false);
  return toPlanDto(row, await countUsage(db, caller.ownerId, caller.now), caller.now);
}

type TDecision =
  | { kind: "unchanged" }
  | { kind: "change"; plan: TPlanName; status: TPlanStatus; trialEndsAt: Date | null; trialUsed: boolean }
  | { kind: "over_limits"; exceeded: TExceeded[] }
  | { kind: "checkout_unavailable" };

/** The POST table of §5.2 (every change to smaller limits refused when the usage is over them, §6 item 24). */
function decide(row: TOwnerPlanRow, to: TPlanName, usage: Record<TPlanLimitKey, number>, now: Date): TDecision {
  const status = effectiveStatus(row, now);
  const from = planNameOf(row.plan);
  if (status !== "expired" && to === from) return { kind: "unchanged" };
  const exceeded = exceededLimits(limitsOf(to), usage);
  let next: TDecision;
  if (to === "free") next = { kind: "change", plan: "free", status: "active", trialEndsAt: null, trialUsed: row.trialUsed };
  else if (status === "trialing") next = { kind: "change", plan: to, status, trialEndsAt: row.trialEndsAt, trialUsed: true };
  else if (!row.trialUsed)
    next = {
      kind: "change",
      plan: to,
      status: "trialing",
      trialEndsAt: new Date(now.getTime() + TRIAL_DAYS * DAY_MS),
      trialUsed: true,
    };
  else return { kind: "checkout_unavailable" };
  return exceeded.length > 0 ? { kind: "over_limits", exceeded } : next;
}

function refusal(decision: TDecision): AppError | null {
  if (decision.kind === "over_limits") {
    const names = decision.exceeded.map((item) => `${item.limit} (${item.used} of ${item.allowed})`).join(", ");
    return new AppError("state_conflict", `The usage is over that plan's limits: ${names}.`, {
      details: { exceeded: decision.exceeded },
    });
  }
  if (decision.kind === "checkout_unavailable") {
    return new AppError(
      "state_conflict",
      "The trial was used already, and a paid plan needs a checkout, which is not available.",
      {
        details: { reason: "checkout_unavailable" },
      },
    );
  }
  return null;
}

/** POST /v1/plan: the owner's row locked, the table applied, `plan.changed` audited on a change. */
export async function changePlan(db: TDbOrTx, caller: TCaller, to: TPlanName): Promise<TPlan> {
  const { ownerId, now } = caller;
  return inTransaction(db, async (tx) => {
    await expireTrials(tx, now, ownerId);
    const row = await requirePlanRow(tx, ownerId, true);
    const usage = await countUsage(tx, ownerId, now);
    const decision = decide(row, to, usage, now);
    const refused = refusal(decision);
    if (refused) throw refused;
    if (decision.kind !== "change") return toPlanDto(row, usage, now);
    const updated = await tx.owner.update({
      where: { id: ownerId },
      data: {
        plan: decision.plan,
        planStatus: decision.status,
        trialEndsAt: decision.trialEndsAt,
        trialUsed: decision.trialUsed,
      },
      select: PLAN_FIELDS,
    });
    await recordAudit(tx, {
      ownerId,
      actor: caller.actor,
      requestId: caller.requestId,
      action: "plan.changed",
      target: { type: "owner", id: ownerId },
      details: { from: planNameOf(row.plan), to: decision.plan, plan_status: decision.status },
    });
    return toPlanDto(updated, usage, now);
  });
}

/** GET /v1/plan/upgrade-preview: what POST /v1/plan with `to` would do now, nothing written. */
export async function previewPlanChange(db: TDbOrTx, caller: TCaller, to: TPlanName): Promise<TUpgradePreview> {
  const { ownerId, now } = caller;
  await expireOwnerIfDue(db, ownerId, now);
  const row = await requirePlanRow(db, ownerId, false);
  const usage = await countUsage(db, ownerId, now);
  const decision = decide(row, to, usage, now);
  const result =
    decision.kind === "change"
      ? { status: decision.status, trialEndsAt: decision.trialEndsAt }
      : decision.kind === "unchanged"
        ? { status: effectiveStatus(row, now), trialEndsAt: row.trialEndsAt }
        : null;
  return {
    from: planNameOf(row.plan),
    to,
    limits_before: limitsOf(row.plan),
    limits_after: limitsOf(to),
    usage,
    would_exceed: exceededLimits(limitsOf(to), usage),
    allowed: result !== null,
    resulting_status: result?.status ?? null,
    trial_ends_at: result?.trialEndsAt?.toISOString() ?? null,
    price_change: null,
  };
}
