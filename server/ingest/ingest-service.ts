// The three internal ingest paths (contract: Inbound events and signals), each in its own
// transaction, and a delivery (events + signals of one webhook request) in one transaction.
// Domain services, not HTTP: webhooks, provider syncs and statement imports all call these.
import type { TDbOrTx, TTx } from "../db/client";
import { inTransaction } from "../db/transaction";
import { ingestCashSnapshotsInTx } from "./ingest-cash";
import { ingestEventsInTx, type TIngestOptions } from "./ingest-events";
import type { TDeliveryResult, TIngestResult, TIntegrationSignal, TSignalResult, TSnapshotResult } from "./ingest.schema";
import { ingestSignalsInTx } from "./ingest-signals";

export type { TIngestOptions } from "./ingest-events";
export { UNLINKED_REFUND_MAX_CONFIDENCE } from "./ingest-events";

/** (owner, NormalizedEvent[]) → { inserted, deduped, rejected[] }; items are validated here. */
export function ingestEvents(
  db: TDbOrTx,
  ownerId: string,
  events: readonly unknown[],
  options: TIngestOptions = {},
): Promise<TIngestResult> {
  return inTransaction(db, (tx) => ingestEventsInTx(tx, ownerId, events, options));
}

/** IntegrationSignal[] (validated) → { accepted, deduped }. */
export function ingestSignals(
  db: TDbOrTx,
  ownerId: string,
  signals: readonly TIntegrationSignal[],
  options: TIngestOptions = {},
): Promise<TSignalResult> {
  return inTransaction(db, async (tx) => {
    const { accepted, deduped } = await ingestSignalsInTx(tx, ownerId, signals, options);
    return { accepted, deduped };
  });
}

/** CashSnapshotInput[] → { inserted, deduped, rejected[] }; items are validated here. */
export function ingestCashSnapshots(
  db: TDbOrTx,
  ownerId: string,
  snapshots: readonly unknown[],
  options: TIngestOptions = {},
): Promise<TSnapshotResult> {
  return inTransaction(db, (tx) => ingestCashSnapshotsInTx(tx, ownerId, snapshots, options));
}

/** The items of one delivery: events and signals, with their positions in the request. */
export type TDeliveryItems = {
  events?: readonly unknown[];
  signals?: readonly TIntegrationSignal[];
  /** Each item's position in the request, for `rejected[].index` (default: events by position, then signals). */
  eventIndexes?: readonly number[];
  signalIndexes?: readonly number[];
};

/** Events and signals of one delivery, all or nothing apart from per-item rejections. */
export function ingestDelivery(
  db: TDbOrTx,
  ownerId: string,
  delivery: TDeliveryItems,
  options: TIngestOptions = {},
): Promise<TDeliveryResult> {
  return inTransaction(db, (tx) => ingestDeliveryInTx(tx, ownerId, delivery, options));
}

/**
 * A delivery inside the caller's transaction, without a savepoint of its own: a webhook
 * receiver's transaction holds the delivery and nothing else, so a throw here ends it whole
 * (a savepoint would cost two more statements per delivery and undo nothing more).
 */
export async function ingestDeliveryInTx(
  tx: TTx,
  ownerId: string,
  delivery: TDeliveryItems,
  options: TIngestOptions = {},
): Promise<TDeliveryResult> {
  const events = delivery.events?.length
    ? await ingestEventsInTx(tx, ownerId, delivery.events, options)
    : { inserted: 0, deduped: 0, rejected: [] };
  // A bad signal is rejected alone; by default its index follows the events' (events.length + its position).
  const signals = delivery.signals?.length
    ? await ingestSignalsInTx(tx, ownerId, delivery.signals, { ...options, perItem: true })
    : { accepted: 0, deduped: 0, rejected: [] };
  const offset = delivery.events?.length ?? 0;
  const rejected = [
    ...events.rejected.map((r) => ({ ...r, index: delivery.eventIndexes?.[r.index] ?? r.index })),
    ...signals.rejected.map((r) => ({ ...r, index: delivery.signalIndexes?.[r.index] ?? offset + r.index })),
  ].sort((a, b) => a.index - b.index);
  return { ...events, rejected, signals_accepted: signals.accepted, signals_deduped: signals.deduped };
}
