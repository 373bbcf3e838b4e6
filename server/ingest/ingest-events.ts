// The ingest path for events (contract: Inbound events and signals, States and transitions).
// Integrations write financial events only through here. A batch is checked item by item
// (partial success: a bad event is rejected with its code, the others go in) and written in
// a fixed number of statements, whatever its size:
//
//   owner base currency (share lock) → the integrations, row-locked → businesses/projects → FX rates (one lookup) → stored versions of the named keys →
//   planned/reconciled events named → INSERT events → UPDATE voided → INSERT audit entries
//   → UPDATE integrations.last_sync_at
//
// Transitions, per (integration_id, external_id):
//   new key                          → inserted, status confirmed
//   same key, same amount + currency → deduped (counted, nothing written)
//   same key, another amount         → restatement: the latest version voided, a new event
//                                      `<key>:v<n>` with payload.supersedes_external_id = key
//                                      and supersedes_event_id = the voided one (inserted)
//   explicit supersedes_external_id  → the named events' latest versions voided; a string
//                                      links supersedes_event_id, an array (on a `:v<n>` id)
//                                      fills supersedes_event_ids[]
//   payload.fulfills_event_id        → that planned event is fulfilled, variance_minor = actual − planned
//   payload.reconciles_event_id      → this (import) event is stored reconciled, out of totals
//   refund                           → linked to refunds_external_id's latest version in the
//                                      same integration (refunds_event_id) or, unresolved,
//                                      saved unlinked with confidence ≤ 0.9
import { randomUUID } from "node:crypto";
import type { TTx } from "../db/client";
import { AppError } from "../errors/app-error";
import { convertManySettled, type TFxOptions } from "../fx/fx-service";
import { isExactMinor, todayUtc } from "../fx/money";
import { lockBaseCurrency } from "../fx/rebase-owner";
import { isKnownCurrency } from "../shared/currencies";
import { lockOwnerIntegrations, touchLastSync } from "../sources/integration-store";
import { insertEvents, insertIntegrationAuditEntries, type TAuditRecord, type TEventRecord } from "./bulk-insert";
import { rejectionOf, unstorable } from "./item-checks";
import { ZNormalizedEvent, type TIngestResult, type TNormalizedEvent, type TRejectedItem } from "./ingest.schema";

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
};

/** Refunds whose refunded event is unknown are stored with at most this confidence. */
export const UNLINKED_REFUND_MAX_CONFIDENCE = 0.9;
/** Actual events may be dated up to this many days after today (UTC): senders in later timezones. */
const FUTURE_DAYS_ALLOWED = 1;

type TItem = { index: number; event: TNormalizedEvent; businessId: string; projectId: string | null };

type TStored = {
  id: string;
  integrationId: string | null;
  externalId: string | null;
  chainExternalId: string | null;
  amountMinor: bigint;
  currency: string;
  status: string;
  type: string;
  state: string;
  sourceType: string;
  reconciled: boolean;
  fulfilledByEventId: string | null;
};

const STORED_FIELDS = {
  id: true,
  integrationId: true,
  externalId: true,
  chainExternalId: true,
  amountMinor: true,
  currency: true,
  status: true,
  type: true,
  state: true,
  sourceType: true,
  reconciled: true,
  fulfilledByEventId: true,
} as const;

const VERSIONED = /^(.+):v(\d+)$/;

function key(integrationId: string, externalId: string): string {
  return `${integrationId}\u0000${externalId}`;
}

function asArray<T>(value: T | T[] | undefined): T[] {
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}

/** The version number of an event inside its chain: the chain's first event is 1, `<chain>:v<n>` is n. */
function versionOf(row: { externalId: string | null; chainExternalId: string | null }): number {
  if (!row.externalId || row.externalId === row.chainExternalId) return 1;
  const match = VERSIONED.exec(row.externalId);
  return match && match[1] === row.chainExternalId ? Number(match[2]) : 1;
}

/**
 * The versions of every chain touched, per integration: one query for the stored events whose
 * key is named, one more for the rest of their chains (only when some exist).
 */
class ChainIndex {
  private byKey = new Map<string, TStored>();
  private byId = new Map<string, TStored>();
  private chains = new Map<string, TStored[]>();

  add(row: TStored): void {
    // One object per stored row, so marking it voided is seen through every index.
    if (!row.integrationId || !row.externalId || this.byId.has(row.id)) return;
    this.byKey.set(key(row.integrationId, row.externalId), row);
    this.byId.set(row.id, row);
    const chainKey = key(row.integrationId, row.chainExternalId ?? row.externalId);
    const chain = this.chains.get(chainKey) ?? [];
    if (!chain.some((r) => r.id === row.id)) chain.push(row);
    this.chains.set(chainKey, chain);
  }

  exact(integrationId: string, externalId: string): TStored | undefined {
    return this.byKey.get(key(integrationId, externalId));
  }

  /** The chain of a stored key: its rows and the chain's root external id. */
  chainOf(integrationId: string, externalId: string): { root: string; rows: TStored[] } | undefined {
    const row = this.exact(integrationId, externalId);
    if (!row) return undefined;
    const root = row.chainExternalId ?? row.externalId!;
    return { root, rows: this.chains.get(key(integrationId, root)) ?? [row] };
  }

  /** The newest version of a stored key's chain (the one a repeat is compared with). */
  latest(integrationId: string, externalId: string): TStored | undefined {
    const chain = this.chainOf(integrationId, externalId);
    if (!chain) return undefined;
    return chain.rows.reduce((a, b) => (versionOf(b) > versionOf(a) ? b : a));
  }

  /** The newest version that still counts (confirmed), for refunds and explicit supersedes. */
  latestConfirmed(integrationId: string, externalId: string): TStored | undefined {
    const chain = this.chainOf(integrationId, externalId);
    const confirmed = chain?.rows.filter((r) => r.status === "confirmed") ?? [];
    return confirmed.length ? confirmed.reduce((a, b) => (versionOf(b) > versionOf(a) ? b : a)) : undefined;
  }

  /** A later round sees an event voided in this one. */
  markVoided(id: string): void {
    const row = this.byId.get(id);
    if (row) row.status = "voided";
  }

  nextVersion(integrationId: string, externalId: string): number {
    const chain = this.chainOf(integrationId, externalId);
    return Math.max(1, ...(chain?.rows.map(versionOf) ?? [1])) + 1;
  }
}

/**
 * The stored events of these keys: one probe of the unique (integration_id, external_id) index
 * per key. LATERAL … LIMIT 1 keeps it a probe whatever the statistics say: written as
 * `integration_id = $1 AND external_id = ANY($2)`, a table PostgreSQL had not analysed yet was
 * read through all of the integration's rows (12 ms at 32,500 rows, growing with them). Raw
 * because Prisma serialises an IN list value by value.
 */
export const STORED_BY_KEYS = `
  SELECT e.* FROM unnest($1::uuid[], $2::text[]) AS k(integration_id, external_id)
  CROSS JOIN LATERAL (
    SELECT f.id, f.integration_id, f.external_id, f.chain_external_id, f.amount_minor, f.currency, f.status, f.type,
           f.state, f.source_type, f.reconciled, f.fulfilled_by_event_id
    FROM financial_events f
    WHERE f.integration_id = k.integration_id AND f.external_id = k.external_id
    LIMIT 1
  ) e`;

async function findStoredByKeys(tx: TTx, names: Map<string, Set<string>>): Promise<TStored[]> {
  const integrationIds: string[] = [];
  const externalIds: string[] = [];
  for (const [integrationId, ids] of names) {
    for (const externalId of ids) {
      integrationIds.push(integrationId);
      externalIds.push(externalId);
    }
  }
  if (externalIds.length === 0) return [];
  const rows = await tx.$queryRawUnsafe<
    Array<{
      id: string;
      integration_id: string | null;
      external_id: string | null;
      chain_external_id: string | null;
      amount_minor: bigint | number | string;
      currency: string;
      status: string;
      type: string;
      state: string;
      source_type: string;
      reconciled: boolean;
      fulfilled_by_event_id: string | null;
    }>
  >(STORED_BY_KEYS, integrationIds, externalIds);
  return rows.map((r) => ({
    id: r.id,
    integrationId: r.integration_id,
    externalId: r.external_id,
    chainExternalId: r.chain_external_id,
    amountMinor: BigInt(r.amount_minor),
    currency: r.currency,
    status: r.status,
    type: r.type,
    state: r.state,
    sourceType: r.source_type,
    reconciled: r.reconciled,
    fulfilledByEventId: r.fulfilled_by_event_id,
  }));
}

function firstIssue(error: { issues: Array<{ path: PropertyKey[]; message: string }> }): string {
  const issue = error.issues[0]!;
  const path = issue.path.map(String).join(".");
  return path ? `${path}: ${issue.message}` : issue.message;
}

function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/** Checks that need no database: the event's shape and the rules between its fields. */
/** `latestActualDay`: the last day an actual event may have (YYYY-MM-DD, compared as text). */
function checkShape(raw: unknown, latestActualDay: string): TNormalizedEvent | { code: TRejectedItem["code"]; message: string } {
  const parsed = ZNormalizedEvent.safeParse(raw);
  if (!parsed.success) return { code: "validation_error", message: firstIssue(parsed.error) };
  const event = parsed.data;
  const payload = event.payload ?? {};
  if (!isKnownCurrency(event.currency))
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
  // What the database would refuse for this one row fails the batch's multi-row INSERT: refused here instead.
  if (event.occurred_on < "0001-01-01") return { code: "validation_error", message: "occurred_on: is out of range" };
  for (const field in event) {
    const problem = unstorable(event[field as keyof TNormalizedEvent], field);
    if (problem) return { code: "validation_error", message: problem };
  }
  return event;
}

/** Splits a batch into rounds in which every key appears once: the n-th repeat of a key goes in round n. */
function rounds(items: TItem[]): TItem[][] {
  const seen = new Map<string, number>();
  const out: TItem[][] = [];
  for (const item of items) {
    const k = key(item.event.integration_id, item.event.external_id);
    const n = seen.get(k) ?? 0;
    seen.set(k, n + 1);
    (out[n] ??= []).push(item);
  }
  // Refunds last, so a refund finds a charge sent earlier in the same batch.
  return out.map((round) => [
    ...round.filter((i) => i.event.type !== "refund"),
    ...round.filter((i) => i.event.type === "refund"),
  ]);
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

  const base = await lockBaseCurrency(tx, ownerId);
  if (base === null) throw new AppError("not_found", "No such owner.");

  // 2. Integrations: the owner's, one query, each locked so that deliveries of one
  // integration take turns (a key seen by two of them is then a repeat, never a duplicate).
  const integrationIds = [...new Set(checked.map((c) => c.event.integration_id))];
  const integrations = new Map((await lockOwnerIntegrations(tx, ownerId, { ids: integrationIds })).map((i) => [i.id, i]));
  checked = checked.filter(({ index, event }) => {
    if (integrations.has(event.integration_id)) return true;
    reject(index, event.external_id, "validation_error", "integration_id: no such integration");
    return false;
  });

  // 3. Scope: business from the event or its integration; a project must be in that business,
  // a subscription the owner's (and, when it has one, in that business). Every id is looked up
  // among the owner's rows only, so another owner's id is "no such" (one query per kind of id).
  const businessIds = new Set<string>();
  const projectIds = new Set<string>();
  const subscriptionIds = new Set<string>();
  for (const { event } of checked) {
    const businessId = event.business_id ?? integrations.get(event.integration_id)!.businessId;
    if (businessId) businessIds.add(businessId);
    if (event.project_id) projectIds.add(event.project_id);
    if (event.subscription_id) subscriptionIds.add(event.subscription_id);
  }
  const [businesses, projects, subscriptions] = await Promise.all([
    businessIds.size
      ? tx.business.findMany({ where: { ownerId, id: { in: [...businessIds] } }, select: { id: true } })
      : Promise.resolve([]),
    projectIds.size
      ? tx.project.findMany({ where: { ownerId, id: { in: [...projectIds] } }, select: { id: true, businessId: true } })
      : Promise.resolve([]),
    subscriptionIds.size
      ? tx.subscription.findMany({ where: { ownerId, id: { in: [...subscriptionIds] } }, select: { id: true, businessId: true } })
      : Promise.resolve([]),
  ]);
  const subscriptionBusiness = new Map(subscriptions.map((s) => [s.id, s.businessId]));
  const ownedBusinesses = new Set(businesses.map((b) => b.id));
  const projectBusiness = new Map(projects.map((p) => [p.id, p.businessId]));
  const items: TItem[] = [];
  for (const { index, event } of checked) {
    const businessId = event.business_id ?? integrations.get(event.integration_id)!.businessId;
    if (!businessId) {
      reject(index, event.external_id, "validation_error", "business_id: required (the integration has no business)");
    } else if (!ownedBusinesses.has(businessId)) {
      reject(index, event.external_id, "validation_error", "business_id: no such business");
    } else if (event.project_id && projectBusiness.get(event.project_id) !== businessId) {
      reject(index, event.external_id, "validation_error", "project_id: no such project in this business");
    } else if (
      event.subscription_id &&
      (!subscriptionBusiness.has(event.subscription_id) ||
        ![null, businessId].includes(subscriptionBusiness.get(event.subscription_id)!))
    ) {
      reject(index, event.external_id, "validation_error", "subscription_id: no such subscription in this business");
    } else {
      items.push({ index, event, businessId, projectId: event.project_id ?? null });
    }
  }

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

  // 5. Write, round by round (a key repeated inside the batch is handled as a later delivery).
  let inserted = 0;
  const chains = new ChainIndex();
  const touched = new Set<string>(integrationIds.filter((id) => integrations.has(id)));
  const claimedPlanned = new Set<string>();
  for (const round of rounds(ready)) {
    const result = await writeRound(tx, ownerId, round, { chains, rates, base, now, options, claimedPlanned });
    inserted += result.inserted;
    deduped += result.deduped;
    for (const r of result.rejected) reject(r.index, r.external_id, r.code, r.message ?? "");
  }
  await touchLastSync(tx, [...touched], now);
  rejected.sort((a, b) => a.index - b.index);
  return { inserted, deduped, rejected };
}

/** An actual event's frozen base: its amount in the base currency and the rate used. */
type TFrozenBase = { baseMinor: bigint; rate: string; asOf: string; source: string };

type TRoundContext = {
  chains: ChainIndex;
  rates: Map<number, TFrozenBase>;
  base: string;
  now: Date;
  options: TIngestOptions;
  claimedPlanned: Set<string>;
};

async function writeRound(tx: TTx, ownerId: string, round: TItem[], ctx: TRoundContext): Promise<TIngestResult> {
  const { chains } = ctx;
  const rejected: TRejectedItem[] = [];
  const reject = (item: TItem, code: TRejectedItem["code"], message: string) =>
    rejected.push({ index: item.index, external_id: item.event.external_id, code, message });

  // Stored versions of every key this round names (its own, superseded and refunded keys).
  const names = new Map<string, Set<string>>();
  const name = (integrationId: string, externalId: string) => {
    const set = names.get(integrationId) ?? new Set<string>();
    set.add(externalId);
    names.set(integrationId, set);
  };
  const referenced = new Set<string>();
  for (const { event } of round) {
    name(event.integration_id, event.external_id);
    for (const s of asArray(event.payload?.supersedes_external_id)) name(event.integration_id, s);
    if (event.payload?.refunds_external_id) name(event.integration_id, event.payload.refunds_external_id);
    if (event.payload?.fulfills_event_id) referenced.add(event.payload.fulfills_event_id);
    for (const id of asArray(event.payload?.reconciles_event_id)) referenced.add(id);
  }
  const named = await findStoredByKeys(tx, names);
  const rootsToLoad = named.filter((r) => r.chainExternalId && r.integrationId);
  if (rootsToLoad.length) {
    const byIntegration = new Map<string, Set<string>>();
    for (const r of rootsToLoad) {
      const set = byIntegration.get(r.integrationId!) ?? new Set<string>();
      set.add(r.chainExternalId!);
      byIntegration.set(r.integrationId!, set);
    }
    const versions = await tx.financialEvent.findMany({
      where: { OR: [...byIntegration].map(([integrationId, ids]) => ({ integrationId, chainExternalId: { in: [...ids] } })) },
      select: STORED_FIELDS,
    });
    for (const row of versions) chains.add(row);
  }
  for (const row of named) chains.add(row);
  const others = referenced.size
    ? new Map(
        (await tx.financialEvent.findMany({ where: { ownerId, id: { in: [...referenced] } }, select: STORED_FIELDS })).map(
          (r) => [r.id, r],
        ),
      )
    : new Map<string, TStored>();

  const rows: TEventRecord[] = [];
  const audits: TAuditRecord[] = [];
  // voided event id → the event that replaces it (and that event's integration, the actor)
  const voids = new Map<string, { byId: string; integrationId: string }>();
  const fulfils: Array<{ plannedId: string; eventId: string; integrationId: string; variance: bigint }> = [];
  let deduped = 0;

  // One item at a time; whatever one throws rejects that item alone (its effects below are
  // only recorded once nothing can reject it any more).
  const processItem = (item: TItem): void => {
    const { event } = item;
    const payload: Record<string, unknown> = { ...(event.payload ?? {}) };
    const integrationId = event.integration_id;
    let externalId = event.external_id;
    let chainExternalId = event.external_id;
    let supersedesEventId: string | null = null;
    let supersedesEventIds: string[] = [];
    const toVoid: string[] = [];

    const latest = chains.latest(integrationId, event.external_id);
    if (latest) {
      // A key already stored: a repeat, or a restatement of its newest version.
      if (latest.amountMinor === BigInt(event.amount_minor) && latest.currency === event.currency) {
        deduped++;
        return;
      }
      const chain = chains.chainOf(integrationId, event.external_id)!;
      chainExternalId = chain.root;
      externalId = `${chain.root}:v${chains.nextVersion(integrationId, event.external_id)}`;
      payload.supersedes_external_id = event.external_id;
      supersedesEventId = latest.id;
      if (latest.status === "confirmed") toVoid.push(latest.id);
    } else if (event.payload?.supersedes_external_id !== undefined) {
      // An explicit correction of events stored before.
      const targets = asArray(event.payload.supersedes_external_id);
      const found = targets.map((t) => chains.latestConfirmed(integrationId, t) ?? chains.latest(integrationId, t));
      const missing = targets.filter((_, n) => !found[n]);
      if (missing.length) {
        reject(item, "validation_error", `payload.supersedes_external_id: no event ${missing.join(", ")} in this integration`);
        return;
      }
      for (const row of found) if (row!.status === "confirmed") toVoid.push(row!.id);
      if (Array.isArray(event.payload.supersedes_external_id)) {
        supersedesEventIds = found.map((r) => r!.id);
      } else {
        supersedesEventId = found[0]!.id;
        // `<key>:v<n>` continues the chain of <key>, so a later restatement of <key> numbers after it.
        const match = VERSIONED.exec(event.external_id);
        if (match && match[1] === targets[0]) chainExternalId = chains.chainOf(integrationId, targets[0]!)!.root;
      }
    }

    const id = randomUUID();
    const amountMinor = BigInt(event.amount_minor);
    let confidence = event.confidence ?? 1;
    let refundsEventId: string | null = null;
    let direction: string | null = event.payload?.direction ?? null;

    if (event.type === "refund") {
      const refundedKey = event.payload?.refunds_external_id;
      const refunded = refundedKey ? chains.latestConfirmed(integrationId, refundedKey) : undefined;
      if (refunded) {
        if (refunded.currency !== event.currency) {
          reject(item, "currency_mismatch", `A refund in ${event.currency} of an event in ${refunded.currency}.`);
          return;
        }
        refundsEventId = refunded.id;
        direction ??= refunded.type === "revenue" || refunded.type === "subscription_change" ? "out" : "in";
      } else {
        if (direction === null) {
          reject(item, "validation_error", "payload.direction: required when the refunded event is not known (in or out)");
          return;
        }
        confidence = Math.min(confidence, UNLINKED_REFUND_MAX_CONFIDENCE);
      }
    }

    const fulfillsId = event.payload?.fulfills_event_id;
    if (fulfillsId) {
      const planned = others.get(fulfillsId);
      if (!planned || planned.state !== "planned" || planned.status !== "confirmed") {
        reject(item, "validation_error", "payload.fulfills_event_id: no such planned event");
        return;
      }
      if (planned.fulfilledByEventId || ctx.claimedPlanned.has(planned.id)) {
        reject(item, "validation_error", "payload.fulfills_event_id: that planned event is already fulfilled");
        return;
      }
      if (planned.currency !== event.currency) {
        reject(item, "currency_mismatch", `The planned event is in ${planned.currency}, this one in ${event.currency}.`);
        return;
      }
      if (!isExactMinor(amountMinor - planned.amountMinor)) {
        reject(item, "validation_error", "amount_minor: its variance from the planned event is beyond the exact integer range");
        return;
      }
    }

    const reconcileIds = asArray(event.payload?.reconciles_event_id);
    if (reconcileIds.length) {
      const matches = reconcileIds.map((rid) => others.get(rid));
      const bad = matches.findIndex(
        (m) => !m || m.state !== "actual" || m.status !== "confirmed" || m.integrationId === null || m.sourceType === "MANUAL",
      );
      if (bad >= 0) {
        reject(
          item,
          "validation_error",
          `payload.reconciles_event_id: ${reconcileIds[bad]} is not an actual event from an integration`,
        );
        return;
      }
      if (matches.some((m) => m!.currency !== event.currency)) {
        reject(item, "currency_mismatch", "payload.reconciles_event_id: the matched events are in another currency");
        return;
      }
      const sum = matches.reduce((total, m) => total + m!.amountMinor, 0n);
      if (sum !== amountMinor && sum !== -amountMinor) {
        reject(item, "validation_error", "payload.reconciles_event_id: the amounts do not match");
        return;
      }
      payload.reconciled = true;
    }

    const rate = ctx.rates.get(item.index);
    const frozen = event.state === "actual" && rate !== undefined;
    const baseAmountMinor = frozen ? rate.baseMinor : undefined;
    const unstored = unstorable(baseAmountMinor, "base_amount_minor");
    if (unstored) {
      reject(item, "validation_error", unstored);
      return;
    }

    // Accepted: from here on nothing rejects this event.
    if (fulfillsId) {
      const planned = others.get(fulfillsId)!;
      ctx.claimedPlanned.add(planned.id);
      fulfils.push({ plannedId: planned.id, eventId: id, integrationId, variance: amountMinor - planned.amountMinor });
    }
    for (const voided of toVoid) voids.set(voided, { byId: id, integrationId });

    const sourceType = event.source_type;
    // An object literal of one shape for every row: V8 serialises those several times faster.
    rows.push({
      id,
      business_id: item.businessId,
      project_id: item.projectId ?? undefined,
      type: event.type,
      state: event.state,
      amount_minor: String(amountMinor),
      currency: event.currency,
      base_amount_minor: baseAmountMinor === undefined ? undefined : String(baseAmountMinor),
      base_currency: frozen ? ctx.base : undefined,
      fx_rate: frozen ? rate.rate : undefined,
      fx_as_of: frozen ? rate.asOf : undefined,
      fx_source: frozen ? rate.source : undefined,
      occurred_on: event.occurred_on,
      category: event.category ?? undefined,
      description: event.description ?? undefined,
      source_type: sourceType,
      integration_id: integrationId,
      external_id: externalId,
      chain_external_id: chainExternalId,
      confidence,
      payload,
      subscription_id: event.subscription_id ?? undefined,
      refunds_event_id: refundsEventId ?? undefined,
      supersedes_event_id: supersedesEventId ?? undefined,
      supersedes_event_ids: supersedesEventIds.length ? supersedesEventIds : undefined,
      direction: direction ?? undefined,
      reconciled: reconcileIds.length > 0 || undefined,
    });
    // Later items of this round (refunds) see this event as the newest version of its key.
    chains.add({
      id,
      integrationId,
      externalId,
      chainExternalId,
      amountMinor,
      currency: event.currency,
      status: "confirmed",
      type: event.type,
      state: event.state,
      sourceType,
      reconciled: reconcileIds.length > 0,
      fulfilledByEventId: null,
    });
  };
  for (const item of round) {
    try {
      processItem(item);
    } catch (error) {
      const rejection = rejectionOf(error, { step: "ingest.write", external_id: item.event.external_id });
      reject(item, rejection.code, rejection.message);
    }
  }

  // Each new event with its `event.ingested` audit entry (actor_type integration), unless the caller audits the batch.
  await insertEvents(
    tx,
    ownerId,
    ctx.now,
    rows,
    ctx.options.auditInserts === "none" ? false : { requestId: ctx.options.requestId ?? null },
  );
  if (voids.size) {
    await tx.financialEvent.updateMany({
      where: { id: { in: [...voids.keys()] }, status: "confirmed" },
      data: { status: "voided" },
    });
    for (const [voidedId, { byId, integrationId }] of voids) {
      audits.push({
        id: randomUUID(),
        actor_id: integrationId,
        action: "event.voided",
        target_type: "event",
        target_id: voidedId,
        details: { superseded_by: byId },
      });
      chains.markVoided(voidedId);
    }
  }
  if (fulfils.length) {
    // One statement for every fulfilment of the round (bigints travel as exact text).
    await tx.$executeRaw`
      UPDATE financial_events f
      SET fulfilled_by_event_id = u.by_id, variance_minor = u.variance, updated_at = ${ctx.now}
      FROM unnest(
        ${fulfils.map((x) => x.plannedId)}::uuid[],
        ${fulfils.map((x) => x.eventId)}::uuid[],
        ${fulfils.map((x) => String(x.variance))}::bigint[]
      ) AS u(id, by_id, variance)
      WHERE f.id = u.id`;
  }
  for (const f of fulfils) {
    audits.push({
      id: randomUUID(),
      actor_id: f.integrationId,
      action: "event.fulfilled",
      target_type: "event",
      target_id: f.plannedId,
      details: { fulfilled_by_event_id: f.eventId, variance_minor: Number(f.variance) },
    });
  }
  await insertIntegrationAuditEntries(tx, ownerId, ctx.options.requestId ?? null, ctx.now, audits);
  return { inserted: rows.length, deduped, rejected };
}
