// Financial events of one owner: the owner's manual entries (expenses, revenues, planned and
// recurring expenses) and the read API over every event, whatever wrote it.
//
// Order of a write: input (zod) → dates → scope (404 for another owner's business/project) →
// FX conversion (422 currency_unsupported / fx_unavailable) → one transaction with the row(s)
// and their audit entries. Every refusal happens before the transaction, so nothing is written.
import type { TEventState, TEventType } from "../../lib/event-types";
import { todayUtc, utcMidnightOf } from "../../lib/days";
import { moneyDirectionSql } from "../../lib/money-direction";
import type { TCaller } from "../auth/caller";
import { auditCaller } from "../audit/audit-service";
import type { TDbOrTx, TTx } from "../db/client";
import { Prisma, type FinancialEvent } from "../db/generated/client";
import { inTransaction } from "../db/transaction";
import { PLAIN_VALUES } from "../db/value-form";
import { AppError } from "../errors/app-error";
import { convertAmount, convertManySettled } from "../fx/fx-service";
import { lockBaseCurrency } from "../fx/rebase-owner";
import { toJsonAmount } from "../fx/base-amounts";
import { loadOwnerDay } from "../shared/owner-today";
import { resolveScope, type TScope } from "../shared/scope";
import { createSubscription } from "../subscriptions/subscription-service";
import { hasSnapshot, toEventDto, type TCurrentBase } from "./event-dto";
import { eventWhereSql, KEYSETS } from "./event-query";
import { countsInTotalsSql } from "./counted-total";
import { eventProvenance } from "./provenance";
import type {
  TCreateRecurringExpenseInput,
  TEvent,
  TEventFilters,
  TEventSort,
  TEventTotals,
  TFindEventsQuery,
  TManualEventInput,
} from "./event.schema";

export type TOwnerSettings = { baseCurrency: string; timezone: string; today: string };

/** The owner's base currency, timezone and today at `now` (server/shared/owner-today.ts). */
export async function ownerSettings(db: TDbOrTx, ownerId: string, now: Date): Promise<TOwnerSettings> {
  return loadOwnerDay(db, ownerId, now);
}

function provenanceOf(caller: TCaller): Prisma.InputJsonObject {
  const actor =
    caller.actor.type === "agent"
      ? { type: "agent" as const, id: caller.actor.agentId }
      : { type: "owner" as const, id: caller.ownerId };
  return eventProvenance(PLAIN_VALUES, { kind: "manual", actor }) as Prisma.InputJsonObject;
}

export type TManualRow = {
  type: TEventType;
  state: TEventState;
  amountMinor: bigint;
  currency: string;
  occurredOn: string;
  category?: string | null;
  description?: string | null;
  subscriptionId?: string | null;
  /** A correction: the manual event this version replaces (voided in the same transaction). */
  supersedesEventId?: string | null;
  /** What the event carries beside its amount (an agent_action's decision); default {}. */
  payload?: Prisma.InputJsonObject;
  /** The agent it belongs to; default the calling agent's (an owner's entry: none). */
  agentId?: string | null;
};

/**
 * The owner's base currency, read with a share lock inside the write's transaction: a
 * concurrent base-currency change (which re-expresses every event) waits for this write, or
 * this write waits for it, so no event is left in the old base. A conversion error (422)
 * rolls the transaction back, so nothing is written.
 */
export async function lockedOwner(tx: TTx, ownerId: string, owner: TOwnerSettings): Promise<TOwnerSettings> {
  return { ...owner, baseCurrency: (await lockBaseCurrency(tx, ownerId)) ?? owner.baseCurrency };
}

/** The FX part of a write: frozen columns for actual events, nothing stored for the others. */
export async function baseAtWrite(
  db: TDbOrTx,
  owner: TOwnerSettings,
  row: Pick<TManualRow, "state" | "amountMinor" | "currency" | "occurredOn">,
): Promise<TCurrentBase> {
  const kind = row.state === "actual" ? "snapshot" : "current";
  // A current rate is today's (UTC: rates are published per calendar day), as for every record.
  const on = kind === "snapshot" ? row.occurredOn : todayUtc();
  const converted = await convertAmount(db, {
    amountMinor: row.amountMinor,
    from: row.currency,
    to: owner.baseCurrency,
    on,
    kind,
  });
  return { amountMinor: converted.amountMinor, baseCurrency: owner.baseCurrency, fx: converted.fx };
}

/**
 * A manual event's row without its audit entry, for a write that audits itself as one whole (an
 * agent decision and its agent_action event, server/decisions); the others use insertManualEvent.
 */
export async function insertManualEventRow(
  tx: TTx,
  caller: TCaller,
  scope: TScope,
  row: TManualRow,
  base: TCurrentBase,
): Promise<FinancialEvent> {
  const frozen =
    row.state === "actual"
      ? {
          baseAmountMinor: base.amountMinor,
          baseCurrency: base.baseCurrency,
          fxRate: base.fx.rate,
          fxAsOf: utcMidnightOf(base.fx.as_of),
          fxSource: base.fx.source,
        }
      : {};
  return tx.financialEvent.create({
    data: {
      ownerId: caller.ownerId,
      businessId: scope.businessId,
      projectId: scope.projectId,
      personal: scope.personal,
      type: row.type,
      state: row.state,
      status: "confirmed",
      amountMinor: row.amountMinor,
      currency: row.currency,
      ...frozen,
      occurredOn: utcMidnightOf(row.occurredOn),
      category: row.category ?? null,
      description: row.description ?? null,
      sourceType: "MANUAL",
      provenance: provenanceOf(caller),
      confidence: 1,
      payload: row.payload ?? {},
      subscriptionId: row.subscriptionId ?? null,
      supersedesEventId: row.supersedesEventId ?? null,
      agentId: row.agentId !== undefined ? row.agentId : caller.actor.type === "agent" ? caller.actor.agentId : null,
    },
  });
}

export async function insertManualEvent(
  tx: TTx,
  caller: TCaller,
  scope: TScope,
  row: TManualRow,
  base: TCurrentBase,
): Promise<FinancialEvent> {
  const created = await insertManualEventRow(tx, caller, scope, row, base);
  await auditCaller(
    tx,
    caller,
    "event.created",
    { type: "event", id: created.id },
    {
      type: row.type,
      state: row.state,
      amount_minor: Number(row.amountMinor),
      currency: row.currency,
      ...(row.subscriptionId ? { subscription_id: row.subscriptionId } : {}),
      ...(row.supersedesEventId ? { supersedes_event_id: row.supersedesEventId } : {}),
    },
  );
  return created;
}

const MANUAL_KINDS = {
  expense: { type: "expense", state: "actual" },
  revenue: { type: "revenue", state: "actual" },
  planned_expense: { type: "planned_expense", state: "planned" },
} as const satisfies Record<string, { type: TEventType; state: TEventState }>;

export type TManualKind = keyof typeof MANUAL_KINDS;

/** POST /v1/expenses, /v1/revenues, /v1/planned-expenses. */
export async function createManualEvent(
  db: TDbOrTx,
  caller: TCaller,
  kind: TManualKind,
  input: TManualEventInput,
): Promise<TEvent> {
  const { type, state } = MANUAL_KINDS[kind];
  const owner = await ownerSettings(db, caller.ownerId, caller.now);
  if (state === "actual" && input.occurred_on > owner.today) {
    throw AppError.invalidField("occurred_on", "is after today; record a future expense as a planned expense");
  }
  const scope = await resolveScope(db, caller.ownerId, input);
  const row: TManualRow = {
    type,
    state,
    amountMinor: BigInt(input.amount_minor),
    currency: input.currency,
    occurredOn: input.occurred_on,
    category: input.category,
    description: input.description,
  };
  return inTransaction(db, async (tx) => {
    const base = await baseAtWrite(tx, await lockedOwner(tx, caller.ownerId, owner), row);
    return toEventDto(await insertManualEvent(tx, caller, scope, row, base), base);
  });
}

/**
 * POST /v1/recurring-expenses: the subscription and its first charge as one event, in one
 * transaction. The event is actual when next_charge_on is on or before today (the owner's
 * timezone), planned otherwise; it links to the subscription by subscription_id.
 */
export async function createRecurringExpense(db: TDbOrTx, caller: TCaller, input: TCreateRecurringExpenseInput) {
  const owner = await ownerSettings(db, caller.ownerId, caller.now);
  const state: TEventState = input.next_charge_on <= owner.today ? "actual" : "planned";
  const scope = await resolveScope(db, caller.ownerId, input);
  const row: TManualRow = {
    type: "recurring_expense",
    state,
    amountMinor: BigInt(input.amount_minor),
    currency: input.currency,
    occurredOn: input.next_charge_on,
    category: input.category,
    description: input.name,
  };
  return inTransaction(db, async (tx) => {
    const base = await baseAtWrite(tx, await lockedOwner(tx, caller.ownerId, owner), row);
    const subscription = await createSubscription(tx, caller, input);
    const event = await insertManualEvent(tx, caller, scope, { ...row, subscriptionId: subscription.id }, base);
    return { event: toEventDto(event, base), subscription };
  });
}

/**
 * Current-rate base amounts of the events without a frozen snapshot, with ONE batched
 * conversion. An event whose currency has no rate shows base_amount_minor null (no base at
 * all); one whose conversion is beyond the exact range shows it null with its rate.
 */
async function currentBases(db: TDbOrTx, ownerId: string, rows: FinancialEvent[]): Promise<Map<string, TCurrentBase>> {
  const pending = rows.filter((row) => !hasSnapshot(row));
  const bases = new Map<string, TCurrentBase>();
  if (pending.length === 0) return bases;
  const now = new Date(); // reads value at the current rate of the wall clock's day (no caller here)
  const owner = await ownerSettings(db, ownerId, now);
  const on = todayUtc(now);
  const outcomes = await convertManySettled(
    db,
    pending.map((row) => ({
      amountMinor: row.amountMinor,
      from: row.currency,
      to: owner.baseCurrency,
      on,
      kind: "current" as const,
    })),
  );
  pending.forEach((row, index) => {
    const outcome = outcomes[index]!;
    if (outcome.ok) bases.set(row.id, { amountMinor: outcome.amountMinor, baseCurrency: owner.baseCurrency, fx: outcome.fx });
  });
  return bases;
}

type TIdRow = { id: string };

/** The rows of one page (limit + 1, to learn has_more) in the sort's order, by one keyset query. */
async function pageRows(db: TDbOrTx, ownerId: string, query: TFindEventsQuery): Promise<FinancialEvent[]> {
  const keyset = KEYSETS[query.sort];
  const where = query.cursor
    ? Prisma.sql`${eventWhereSql(ownerId, query)} AND ${keyset.after(query.cursor)}`
    : eventWhereSql(ownerId, query);
  const ids = await db.$queryRaw<TIdRow[]>`
    SELECT e.id::text AS id FROM financial_events e WHERE ${where} ORDER BY ${keyset.orderBy} LIMIT ${query.limit + 1}`;
  if (ids.length === 0) return [];
  const rows = await db.financialEvent.findMany({ where: { ownerId, id: { in: ids.map((row) => row.id) } } });
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.map((row) => byId.get(row.id)).filter((row): row is FinancialEvent => row !== undefined);
}

/**
 * GET /v1/events: every event of the owner, voided and reconciled ones included (flagged),
 * filtered, searched (q) and sorted (sort) with a cursor of that sort.
 */
export async function findEvents(db: TDbOrTx, ownerId: string, query: TFindEventsQuery) {
  const rows = await pageRows(db, ownerId, query);
  const hasMore = rows.length > query.limit;
  const kept = hasMore ? rows.slice(0, query.limit) : rows;
  const last = kept.at(-1);
  const page = { next_cursor: hasMore && last ? KEYSETS[query.sort].encode(last) : null, has_more: hasMore };
  const bases = await currentBases(db, ownerId, kept);
  return { data: kept.map((row) => toEventDto(row, bases.get(row.id) ?? null)), page };
}

type TTotalsRow = { in_minor: string; out_minor: string; counted: number; total: number };

// The Overview's rules (server/read-models/counted.ts, which sits above this folder): a counted
// actual is state actual + countsInTotals; its direction is lib/money-direction's.
const COUNTED_ACTUAL = Prisma.raw(`e.state = 'actual' AND ${countsInTotalsSql("e")}`);
const sumOfDirection = (direction: "in" | "out") =>
  Prisma.raw(`COALESCE(SUM(e.base_amount_minor) FILTER (WHERE (${moneyDirectionSql("e")}) = '${direction}'), 0)::text`);

/**
 * GET /v1/events/totals: in, out and net of the rows the same filters list, in the base
 * currency, by the Overview's rules: counted actuals only (confirmed, not reconciled), at
 * their frozen base amounts, directions from lib/money-direction.
 */
export async function findEventTotals(db: TDbOrTx, ownerId: string, filters: TEventFilters): Promise<TEventTotals> {
  const where = eventWhereSql(ownerId, filters);
  const [row] = await db.$queryRaw<TTotalsRow[]>`
    SELECT s.in_minor, s.out_minor, s.counted, (SELECT COUNT(*) FROM financial_events e WHERE ${where})::int AS total
      FROM (SELECT ${sumOfDirection("in")} AS in_minor, ${sumOfDirection("out")} AS out_minor, COUNT(*)::int AS counted
              FROM financial_events e
             WHERE ${where} AND ${COUNTED_ACTUAL}) s`;
  const owner = await ownerSettings(db, ownerId, new Date());
  const inMinor = BigInt(row!.in_minor);
  const outMinor = BigInt(row!.out_minor);
  return {
    base_currency: owner.baseCurrency,
    in_minor: toJsonAmount(inMinor, "in_minor"),
    out_minor: toJsonAmount(outMinor, "out_minor"),
    net_minor: toJsonAmount(inMinor - outMinor, "net_minor"),
    counted: row!.counted,
    not_counted: row!.total - row!.counted,
  };
}

/** How many events the filters match (the CSV export checks its bound before reading any). */
export async function countEvents(db: TDbOrTx, ownerId: string, filters: TEventFilters): Promise<number> {
  const [row] = await db.$queryRaw<{ count: number }[]>`
    SELECT COUNT(*)::int AS count FROM financial_events e WHERE ${eventWhereSql(ownerId, filters)}`;
  return row!.count;
}

/** One batch of the rows the filters match, in `sort` order after `cursor` (the CSV export walks them all). */
export async function findEventBatch(
  db: TDbOrTx,
  ownerId: string,
  filters: TEventFilters,
  options: { sort: TEventSort; limit: number; cursor: string | null },
): Promise<{ data: TEvent[]; next: string | null }> {
  const { data, page } = await findEvents(db, ownerId, { ...filters, ...options });
  return { data, next: page.next_cursor };
}

/** GET /v1/events/{id}. */
/** One event of the owner (404 otherwise); `authorize` checks the caller may read it, before anything else is read. */
export async function getEvent(
  db: TDbOrTx,
  ownerId: string,
  eventId: string,
  authorize?: (row: FinancialEvent) => Promise<void>,
): Promise<TEvent> {
  const row = await db.financialEvent.findFirst({ where: { id: eventId, ownerId } });
  if (!row) throw AppError.notFound("event");
  await authorize?.(row);
  const bases = await currentBases(db, ownerId, [row]);
  return toEventDto(row, bases.get(row.id) ?? null);
}
