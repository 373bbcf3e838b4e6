// The plan of one round of the events path: given the round's items and what the database
// holds for them, what to insert, dedupe, restate, void, fulfil and reject. Pure: no database,
// no clock; round-writer.ts loads what a round names and runs the plan's statements.
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
//   payload.reconciles_event_id      → this (import) event is stored reconciled, out of totals (it names
//                                      an integration's events or hand entries of the same money)
//   refund                           → linked to refunds_external_id's latest version in the
//                                      same integration (refunds_event_id) or, unresolved,
//                                      saved unlinked with confidence ≤ 0.9
import { randomUUID } from "node:crypto";
import { auditRow } from "../audit/audit-row";
import { PLAIN_VALUES } from "../db/value-form";
import { isExactMinor } from "../fx/money";
import type { TAuditRecord, TEventRecord } from "./bulk-insert";
import type { TNormalizedEvent, TRejectedItem } from "./ingest.schema";
import { rejectionOf, unstorable, type TItemRejection } from "./item-checks";

/** Refunds whose refunded event is unknown are stored with at most this confidence. */
export const UNLINKED_REFUND_MAX_CONFIDENCE = 0.9;

/** An event of the batch that passed every check before the rounds, with its scope. */
export type TItem = { index: number; event: TNormalizedEvent; businessId: string; projectId: string | null };

/** A stored event, as much of it as a round's decisions read. */
export type TStored = {
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

/** An actual event's frozen base: its amount in the base currency and the rate used. */
export type TFrozenBase = { baseMinor: bigint; rate: string; asOf: string; source: string };

export const VERSIONED = /^(.+):v(\d+)$/;

function key(integrationId: string, externalId: string): string {
  return `${integrationId}\u0000${externalId}`;
}

export function asArray<T>(value: T | T[] | undefined): T[] {
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}

/** The version number of an event inside its chain: the chain's first event is 1, `<chain>:v<n>` is n. */
function versionOf(row: { externalId: string | null; chainExternalId: string | null }): number {
  if (!row.externalId || row.externalId === row.chainExternalId) return 1;
  const match = VERSIONED.exec(row.externalId);
  return match && match[1] === row.chainExternalId ? Number(match[2]) : 1;
}

/**
 * The versions of every chain a batch touched, per integration: what the database holds for
 * them, then what each planned round adds (its new events, its voids), so a later round and a
 * later item of the same round see the batch's own writes.
 */
export class ChainIndex {
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

/** Splits a batch into rounds in which every key appears once: the n-th repeat of a key goes in round n. */
export function rounds(items: TItem[]): TItem[][] {
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

/** What a round needs from the database: the keys it names (per integration) and the event ids it names. */
export type TRoundLookups = { keys: Map<string, Set<string>>; eventIds: Set<string> };

/** The keys (its own, superseded and refunded) and the events (fulfilled, reconciled) a round names. */
export function roundLookups(round: readonly TItem[]): TRoundLookups {
  const keys = new Map<string, Set<string>>();
  const eventIds = new Set<string>();
  const name = (integrationId: string, externalId: string) => {
    const set = keys.get(integrationId) ?? new Set<string>();
    set.add(externalId);
    keys.set(integrationId, set);
  };
  for (const { event } of round) {
    name(event.integration_id, event.external_id);
    for (const s of asArray(event.payload?.supersedes_external_id)) name(event.integration_id, s);
    if (event.payload?.refunds_external_id) name(event.integration_id, event.payload.refunds_external_id);
    if (event.payload?.fulfills_event_id) eventIds.add(event.payload.fulfills_event_id);
    for (const id of asArray(event.payload?.reconciles_event_id)) eventIds.add(id);
  }
  return { keys, eventIds };
}

export type TVoid = { eventId: string; byId: string; integrationId: string };
export type TFulfilment = { plannedId: string; eventId: string; integrationId: string; variance: bigint };

/** A round's writes, in the order round-writer.ts runs them, and its counts. */
export type TRoundPlan = {
  /** New events (restatements included), each with its `event.ingested` entry unless the caller audits the batch. */
  inserts: TEventRecord[];
  /** Stored events to void (still confirmed), each with the event that replaces it. */
  voids: TVoid[];
  /** Planned events fulfilled by a new event. */
  fulfilments: TFulfilment[];
  /** The voids' and fulfilments' audit entries. */
  audits: TAuditRecord[];
  deduped: number;
  rejected: TRejectedItem[];
};

export type TPlanContext = {
  ownerId: string;
  requestId: string | null;
  /** The owner's base currency, and each actual item's frozen base (by item index). */
  base: string;
  rates: ReadonlyMap<number, TFrozenBase>;
  /** Planned events fulfilled earlier in the batch (a later round must not fulfil them again). */
  claimedPlanned: Set<string>;
  /** Ids of new events (tests pass a counter). */
  newId?: () => string;
};

/** What the database holds for a round: the chains of its keys (updated by planning) and the events it names by id. */
export type TRoundKnown = { chains: ChainIndex; events: ReadonlyMap<string, TStored> };

/** How one item's key resolves: a repeat, or a new event with its place in its chain. */
type TKeyOutcome =
  | { kind: "repeat" }
  | {
      kind: "new";
      externalId: string;
      chainExternalId: string;
      supersedesExternalId: string | null;
      supersedesEventId: string | null;
      supersedesEventIds: string[];
      toVoid: string[];
    };

type TRefundLink = { refundsEventId: string | null; direction: string | null; confidence: number };

const reject = (code: TRejectedItem["code"], message: string): TItemRejection => ({ code, message });
const isRejection = (value: object): value is TItemRejection => "code" in value;

/** A stored key is a repeat or a restatement of its newest version; a new key may name the events it corrects. */
function resolveKey(event: TNormalizedEvent, chains: ChainIndex): TKeyOutcome | TItemRejection {
  const integrationId = event.integration_id;
  const fresh = {
    kind: "new" as const,
    externalId: event.external_id,
    chainExternalId: event.external_id,
    supersedesExternalId: null,
    supersedesEventId: null,
    supersedesEventIds: [] as string[],
    toVoid: [] as string[],
  };
  const latest = chains.latest(integrationId, event.external_id);
  if (latest) {
    if (latest.amountMinor === BigInt(event.amount_minor) && latest.currency === event.currency) return { kind: "repeat" };
    const chain = chains.chainOf(integrationId, event.external_id)!;
    return {
      ...fresh,
      chainExternalId: chain.root,
      externalId: `${chain.root}:v${chains.nextVersion(integrationId, event.external_id)}`,
      supersedesExternalId: event.external_id,
      supersedesEventId: latest.id,
      toVoid: latest.status === "confirmed" ? [latest.id] : [],
    };
  }
  const named = event.payload?.supersedes_external_id;
  if (named === undefined) return fresh;
  // An explicit correction of events stored before.
  const targets = asArray(named);
  const found = targets.map((t) => chains.latestConfirmed(integrationId, t) ?? chains.latest(integrationId, t));
  const missing = targets.filter((_, n) => !found[n]);
  if (missing.length)
    return reject("validation_error", `payload.supersedes_external_id: no event ${missing.join(", ")} in this integration`);
  const rows = found as TStored[];
  const toVoid = rows.filter((row) => row.status === "confirmed").map((row) => row.id);
  if (Array.isArray(named)) return { ...fresh, supersedesEventIds: rows.map((r) => r.id), toVoid };
  // `<key>:v<n>` continues the chain of <key>, so a later restatement of <key> numbers after it.
  const match = VERSIONED.exec(event.external_id);
  const chainExternalId =
    match && match[1] === targets[0] ? chains.chainOf(integrationId, targets[0]!)!.root : fresh.chainExternalId;
  return { ...fresh, chainExternalId, supersedesEventId: rows[0]!.id, toVoid };
}

/** A refund links to the newest confirmed version of the refunded key, else goes in unlinked with a direction. */
function resolveRefund(event: TNormalizedEvent, chains: ChainIndex): TRefundLink | TItemRejection {
  let confidence = event.confidence ?? 1;
  let direction: string | null = event.payload?.direction ?? null;
  if (event.type !== "refund") return { refundsEventId: null, direction, confidence };
  const refundedKey = event.payload?.refunds_external_id;
  const refunded = refundedKey ? chains.latestConfirmed(event.integration_id, refundedKey) : undefined;
  if (refunded) {
    if (refunded.currency !== event.currency)
      return reject("currency_mismatch", `A refund in ${event.currency} of an event in ${refunded.currency}.`);
    direction ??= refunded.type === "revenue" || refunded.type === "subscription_change" ? "out" : "in";
    return { refundsEventId: refunded.id, direction, confidence };
  }
  if (direction === null)
    return reject("validation_error", "payload.direction: required when the refunded event is not known (in or out)");
  confidence = Math.min(confidence, UNLINKED_REFUND_MAX_CONFIDENCE);
  return { refundsEventId: null, direction, confidence };
}

/** The planned event an actual one fulfils (null when it names none). */
function resolveFulfilment(
  event: TNormalizedEvent,
  amountMinor: bigint,
  known: TRoundKnown,
  claimed: ReadonlySet<string>,
): TStored | null | TItemRejection {
  const fulfillsId = event.payload?.fulfills_event_id;
  if (!fulfillsId) return null;
  const planned = known.events.get(fulfillsId);
  if (!planned || planned.state !== "planned" || planned.status !== "confirmed")
    return reject("validation_error", "payload.fulfills_event_id: no such planned event");
  if (planned.fulfilledByEventId || claimed.has(planned.id))
    return reject("validation_error", "payload.fulfills_event_id: that planned event is already fulfilled");
  if (planned.currency !== event.currency)
    return reject("currency_mismatch", `The planned event is in ${planned.currency}, this one in ${event.currency}.`);
  if (!isExactMinor(amountMinor - planned.amountMinor))
    return reject("validation_error", "amount_minor: its variance from the planned event is beyond the exact integer range");
  return planned;
}

/** A stored event a line may reconcile: an integration's, or an entry made by hand (pinned-wave3 §1.2). */
function isReconcilable(m: TStored | undefined): boolean {
  if (!m || m.state !== "actual" || m.status !== "confirmed") return false;
  return m.sourceType === "MANUAL" ? m.integrationId === null : m.integrationId !== null;
}

/** Whether the event reconciles stored events (an integration's, or hand entries): their amounts must sum to its own (either sign). */
function resolveReconciliation(event: TNormalizedEvent, amountMinor: bigint, known: TRoundKnown): boolean | TItemRejection {
  const ids = asArray(event.payload?.reconciles_event_id);
  if (!ids.length) return false;
  const matches = ids.map((id) => known.events.get(id));
  const bad = matches.findIndex((m) => !isReconcilable(m));
  if (bad >= 0)
    return reject(
      "validation_error",
      `payload.reconciles_event_id: ${ids[bad]} is not an actual event from an integration or entered by hand`,
    );
  if (matches.some((m) => m!.currency !== event.currency))
    return reject("currency_mismatch", "payload.reconciles_event_id: the matched events are in another currency");
  const sum = matches.reduce((total, m) => total + m!.amountMinor, 0n);
  if (sum !== amountMinor && sum !== -amountMinor)
    return reject("validation_error", "payload.reconciles_event_id: the amounts do not match");
  return true;
}

/** One item's decision: a repeat, a rejection, or the row to insert with what it voids and fulfils. */
type TItemPlan =
  | { kind: "repeat" }
  | { kind: "reject"; rejection: TItemRejection }
  | { kind: "insert"; record: TEventRecord; stored: TStored; toVoid: string[]; fulfils: TStored | null };

function planItem(item: TItem, known: TRoundKnown, ctx: TPlanContext): TItemPlan {
  const { event } = item;
  const keyed = resolveKey(event, known.chains);
  if (isRejection(keyed)) return { kind: "reject", rejection: keyed };
  if (keyed.kind === "repeat") return keyed;
  const amountMinor = BigInt(event.amount_minor);
  const refund = resolveRefund(event, known.chains);
  if (isRejection(refund)) return { kind: "reject", rejection: refund };
  const fulfils = resolveFulfilment(event, amountMinor, known, ctx.claimedPlanned);
  if (fulfils && isRejection(fulfils)) return { kind: "reject", rejection: fulfils };
  const reconciled = resolveReconciliation(event, amountMinor, known);
  if (typeof reconciled !== "boolean") return { kind: "reject", rejection: reconciled };
  const rate = ctx.rates.get(item.index);
  const frozen = event.state === "actual" && rate !== undefined;
  const baseAmountMinor = frozen ? rate.baseMinor : undefined;
  const unstored = unstorable(baseAmountMinor, "base_amount_minor");
  if (unstored) return { kind: "reject", rejection: reject("validation_error", unstored) };

  const id = (ctx.newId ?? randomUUID)();
  const payload: Record<string, unknown> = { ...(event.payload ?? {}) };
  if (keyed.supersedesExternalId !== null) payload.supersedes_external_id = keyed.supersedesExternalId;
  if (reconciled) payload.reconciled = true;
  // An object literal of one shape for every row: V8 serialises those several times faster.
  const record: TEventRecord = {
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
    source_type: event.source_type,
    integration_id: event.integration_id,
    external_id: keyed.externalId,
    chain_external_id: keyed.chainExternalId,
    confidence: refund.confidence,
    payload,
    subscription_id: event.subscription_id ?? undefined,
    refunds_event_id: refund.refundsEventId ?? undefined,
    supersedes_event_id: keyed.supersedesEventId ?? undefined,
    supersedes_event_ids: keyed.supersedesEventIds.length ? keyed.supersedesEventIds : undefined,
    direction: refund.direction ?? undefined,
    reconciled: reconciled || undefined,
  };
  const stored: TStored = {
    id,
    integrationId: event.integration_id,
    externalId: keyed.externalId,
    chainExternalId: keyed.chainExternalId,
    amountMinor,
    currency: event.currency,
    status: "confirmed",
    type: event.type,
    state: event.state,
    sourceType: event.source_type,
    reconciled,
    fulfilledByEventId: null,
  };
  return { kind: "insert", record, stored, toVoid: keyed.toVoid, fulfils };
}

/**
 * Plans one round. `known.chains` is the planner's memory of the database: it is updated with
 * the round's new events (a refund later in the round finds a charge inserted before it) and,
 * at the end, its voids (the next round sees them), so it holds what the database will hold
 * once the plan is written. An item whose planning throws is rejected alone.
 */
export function planRound(round: readonly TItem[], known: TRoundKnown, ctx: TPlanContext): TRoundPlan {
  const plan: TRoundPlan = { inserts: [], voids: [], fulfilments: [], audits: [], deduped: 0, rejected: [] };
  // voided event id → the event that replaces it (when two items of a round void one event, the later one)
  const voids = new Map<string, TVoid>();
  for (const item of round) {
    let decided: TItemPlan;
    try {
      decided = planItem(item, known, ctx);
    } catch (error) {
      decided = { kind: "reject", rejection: rejectionOf(error, { step: "ingest.write", external_id: item.event.external_id }) };
    }
    if (decided.kind === "repeat") plan.deduped++;
    else if (decided.kind === "reject")
      plan.rejected.push({ index: item.index, external_id: item.event.external_id, ...decided.rejection });
    else {
      const { record, stored, toVoid, fulfils } = decided;
      if (fulfils) {
        ctx.claimedPlanned.add(fulfils.id);
        plan.fulfilments.push({
          plannedId: fulfils.id,
          eventId: record.id,
          integrationId: record.integration_id,
          variance: stored.amountMinor - fulfils.amountMinor,
        });
      }
      for (const voided of toVoid) voids.set(voided, { eventId: voided, byId: record.id, integrationId: record.integration_id });
      plan.inserts.push(record);
      // Later items of this round (refunds) see this event as the newest version of its key.
      known.chains.add(stored);
    }
  }
  plan.voids = [...voids.values()];
  const audit = (integrationId: string, action: string, targetId: string, details: Record<string, string | number>) =>
    auditRow(PLAIN_VALUES, {
      ownerId: ctx.ownerId,
      actor: { type: "integration", integrationId },
      action,
      target: { type: "event", id: targetId },
      requestId: ctx.requestId,
      details,
    });
  for (const v of plan.voids) {
    plan.audits.push(audit(v.integrationId, "event.voided", v.eventId, { superseded_by: v.byId }));
    known.chains.markVoided(v.eventId);
  }
  for (const f of plan.fulfilments)
    plan.audits.push(
      audit(f.integrationId, "event.fulfilled", f.plannedId, {
        fulfilled_by_event_id: f.eventId,
        variance_minor: Number(f.variance),
      }),
    );
  return plan;
}
