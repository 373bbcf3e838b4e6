// The ingest path for events (contract: Inbound events and signals, States and transitions).
// Integrations write financial events only through here. A batch is checked item by item
// (partial success: a bad event is rejected with its code, the others go in) and written in
// a fixed number of statements, whatever its size:
//
//   owner base currency (share lock) → the integrations, row-locked and marked synced (last_sync_at), with
//   the businesses/projects/subscriptions named → FX rates (one lookup)
//   → round by round (round-writer.ts): stored versions of the named keys → planned/reconciled events named
//     → INSERT events (with their audit entries) → UPDATE voided → UPDATE fulfilled → INSERT their audit entries
//
// What each key's event becomes (inserted, deduped, restated, voided, fulfilled, rejected) is
// decided by round-plan.ts, without the database.
import type { TTx } from "../db/client";
import { AppError } from "../errors/app-error";
import { convertManySettled, type TFxOptions } from "../fx/fx-service";
import { addDays, todayUtc } from "../../lib/days";
import { lockBaseCurrency } from "../fx/rebase-owner";
import { isCurrencyCode } from "../../lib/currencies";
import { categorizeItems } from "../category-rules/categorize-items";
import { lockBatchScope } from "./batch-scope";
import { rejectionOf } from "./item-checks";
import { ZNormalizedEvent, type TIngestResult, type TNormalizedEvent, type TRejectedItem } from "./ingest.schema";
import { asArray, ChainIndex, rounds, VERSIONED, type TFrozenBase, type TItem } from "./round-plan";
import { runRound } from "./round-writer";

export { UNLINKED_REFUND_MAX_CONFIDENCE } from "./round-plan";
export { STORED_BY_KEYS } from "./round-writer";

export type TIngestOptions = {
  requestId?: string | null;
  /** Overrides for tests and jobs (another FX provider, another "today"). */
  fx?: TFxOptions;
  now?: Date;
  /**
   * "each" (default): an `event.ingested` audit entry per new event. "none": the caller records
   * one entry for the whole batch (a statement import writes `import.confirmed`). Voids and
   * fulfilments are always audited.
   */
  auditInserts?: "each" | "none";
  /**
   * The owner's base currency when the caller has already taken lockBaseCurrency's lock in this
   * transaction (a webhook delivery takes it with its replay memory); null: no such owner.
   */
  lockedBaseCurrency?: string | null;
  /**
   * true (default): an event without a category gets one from the owner's category rules.
   * false: the caller categorised its rows already (a statement import, at preview, where the
   * owner could change them).
   */
  categorize?: boolean;
};

/** Actual events may be dated up to this many days after today (UTC): senders in later timezones. */
const FUTURE_DAYS_ALLOWED = 1;

function firstIssue(error: { issues: Array<{ path: PropertyKey[]; message: string }> }): string {
  const issue = error.issues[0]!;
  const path = issue.path.map(String).join(".");
  return path ? `${path}: ${issue.message}` : issue.message;
}

/** Checks that need no database: the event's shape and the rules between its fields. */
/** `latestActualDay`: the last day an actual event may have (YYYY-MM-DD, compared as text). */
function checkShape(raw: unknown, latestActualDay: string): TNormalizedEvent | { code: TRejectedItem["code"]; message: string } {
  const parsed = ZNormalizedEvent.safeParse(raw);
  if (!parsed.success) return { code: "validation_error", message: firstIssue(parsed.error) };
  const event = parsed.data;
  const payload = event.payload ?? {};
  if (!isCurrencyCode(event.currency))
    return { code: "currency_unsupported", message: `${event.currency} is not an ISO 4217 currency code` };
  if (event.state === "actual" && event.occurred_on > latestActualDay)
    return { code: "validation_error", message: "occurred_on: is in the future; send a future event with state planned" };
  if (event.type !== "refund" && (payload.refunds_external_id !== undefined || payload.direction !== undefined))
    return { code: "validation_error", message: "payload.refunds_external_id: only refunds name a refunded event" };
  if (payload.fulfills_event_id !== undefined && event.state !== "actual")
    return { code: "validation_error", message: "payload.fulfills_event_id: only an actual event fulfills a planned one" };
  if (payload.reconciles_event_id !== undefined && event.state !== "actual")
    return { code: "validation_error", message: "payload.reconciles_event_id: only an actual event reconciles" };
  const supersedes = payload.supersedes_external_id;
  if (Array.isArray(supersedes) && !VERSIONED.test(event.external_id))
    return {
      code: "validation_error",
      message: "external_id: a correction that replaces several events has an explicit version, <id>:v<n>",
    };
  if (asArray(supersedes).includes(event.external_id))
    return { code: "validation_error", message: "payload.supersedes_external_id: an event cannot supersede itself" };
  // What the database would refuse for this one row fails the batch's multi-row INSERT: refused
  // here instead. Text (NUL, lone surrogates) and nesting were refused by the schema, which walks
  // the parsed event (refuseUnsafeText); the base amount's range is checked when it is known.
  if (event.occurred_on < "0001-01-01") return { code: "validation_error", message: "occurred_on: is out of range" };
  return event;
}

/**
 * Ingests a batch of events for one owner inside `tx` (the caller's transaction). Whole-batch
 * errors (AppError): fx_unavailable when no event could be converted because the rate source has
 * no rate at all (an outage: retry later), nothing written.
 */
export async function ingestEventsInTx(
  tx: TTx,
  ownerId: string,
  rawEvents: readonly unknown[],
  options: TIngestOptions = {},
): Promise<TIngestResult> {
  const now = options.now ?? new Date();
  const today = options.fx?.today ?? todayUtc(now);
  const rejected: TRejectedItem[] = [];
  let deduped = 0;
  const reject = (index: number, externalId: string | null, code: TRejectedItem["code"], message: string) =>
    rejected.push({ index, external_id: externalId, code, message });
  const externalIdOf = (raw: unknown): string | null => {
    const value = (raw as { external_id?: unknown } | null)?.external_id;
    return typeof value === "string" ? value : null;
  };

  // 1. Shape.
  const latestActualDay = addDays(today, FUTURE_DAYS_ALLOWED);
  let checked: Array<{ index: number; event: TNormalizedEvent }> = [];
  rawEvents.forEach((raw, index) => {
    let result: ReturnType<typeof checkShape>;
    try {
      result = checkShape(raw, latestActualDay);
    } catch (error) {
      result = rejectionOf(error, { step: "ingest.check", index });
    }
    if ("code" in result) reject(index, externalIdOf(raw), result.code, result.message);
    else checked.push({ index, event: result });
  });

  const base = options.lockedBaseCurrency !== undefined ? options.lockedBaseCurrency : await lockBaseCurrency(tx, ownerId);
  if (base === null) throw new AppError("not_found", "No such owner.");

  // 2 and 3, one statement (batch-scope.ts). Integrations: the owner's, each locked so that
  // deliveries of one integration take turns (a key seen by two of them is then a repeat, never
  // a duplicate). Scope: business from the event or its integration; a project must be in that
  // business, a subscription the owner's (and, when it has one, in that business).
  const named = (field: "integration_id" | "business_id" | "project_id" | "subscription_id") => [
    ...new Set(checked.flatMap(({ event }) => event[field] ?? [])),
  ];
  const scope = await lockBatchScope(
    tx,
    ownerId,
    {
      integrationIds: named("integration_id"),
      businessIds: named("business_id"),
      projectIds: named("project_id"),
      subscriptionIds: named("subscription_id"),
    },
    now,
  );
  checked = checked.filter(({ index, event }) => {
    if (scope.integrations.has(event.integration_id)) return true;
    reject(index, event.external_id, "validation_error", "integration_id: no such integration");
    return false;
  });
  const items: TItem[] = [];
  for (const { index, event } of checked) {
    const businessId = event.business_id ?? scope.integrations.get(event.integration_id)!.businessId;
    if (!businessId) {
      reject(index, event.external_id, "validation_error", "business_id: required (the integration has no business)");
    } else if (!scope.businesses.has(businessId)) {
      reject(index, event.external_id, "validation_error", "business_id: no such business");
    } else if (event.project_id && scope.projects.get(event.project_id) !== businessId) {
      reject(index, event.external_id, "validation_error", "project_id: no such project in this business");
    } else if (
      event.subscription_id &&
      (!scope.subscriptions.has(event.subscription_id) ||
        ![null, businessId].includes(scope.subscriptions.get(event.subscription_id)!))
    ) {
      reject(index, event.external_id, "validation_error", "subscription_id: no such subscription in this business");
    } else {
      items.push({ index, event, businessId, projectId: event.project_id ?? null });
    }
  }
  if (options.categorize !== false) await categorizeItems(tx, ownerId, items);

  // 4. FX: actual events freeze their base amount at the rate of their day (one lookup); one
  // whose base amount is beyond the exact range is rejected (validation_error on amount_minor).
  const actual = items.filter((i) => i.event.state === "actual");
  const outcomes = await convertManySettled(
    tx,
    actual.map((i) => ({
      amountMinor: BigInt(i.event.amount_minor),
      from: i.event.currency,
      to: base,
      on: i.event.occurred_on,
      kind: "snapshot" as const,
    })),
    options.fx,
  );
  const rates = new Map<number, TFrozenBase>();
  const failedFx: TItem[] = [];
  actual.forEach((item, n) => {
    const outcome = outcomes[n]!;
    if (!outcome.ok) {
      if (outcome.error.code === "fx_unavailable") failedFx.push(item);
      reject(item.index, item.event.external_id, outcome.error.code as TRejectedItem["code"], outcome.error.message);
    } else if (outcome.amountMinor === null) {
      reject(item.index, item.event.external_id, "validation_error", outcome.outOfRange.message);
    } else {
      rates.set(item.index, {
        baseMinor: outcome.amountMinor,
        rate: outcome.fx.rate,
        asOf: outcome.fx.as_of,
        source: outcome.fx.source,
      });
    }
  });
  const converted = actual.filter((i) => rates.has(i.index) && i.event.currency !== base);
  if (failedFx.length > 0 && converted.length === 0) {
    throw new AppError("fx_unavailable", "No exchange rate is available for this batch; nothing was written. Retry later.", {
      details: { rejected: failedFx.length },
    });
  }
  const ready = items.filter((i) => i.event.state !== "actual" || rates.has(i.index));

  // 5. Plan and write, round by round (a key repeated inside the batch is handled as a later delivery).
  let inserted = 0;
  const chains = new ChainIndex();
  const context = {
    ownerId,
    requestId: options.requestId ?? null,
    base,
    rates,
    claimedPlanned: new Set<string>(),
    now,
    auditInserts: options.auditInserts !== "none",
  };
  for (const round of rounds(ready)) {
    const plan = await runRound(tx, round, chains, context);
    inserted += plan.inserts.length;
    deduped += plan.deduped;
    rejected.push(...plan.rejected);
  }
  rejected.sort((a, b) => a.index - b.index);
  return { inserted, deduped, rejected };
}
