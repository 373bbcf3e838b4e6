// A stored financial event in API form. Money leaves as JSON integers, never rounded: a base
// amount or variance beyond the exact range of a JSON number (stored before writes refused
// it, or a planned event converted at today's rate) is shown as null, so a read never fails.
import { daysBetween, utcDayOf } from "../../lib/days";
import type { FinancialEvent } from "../db/generated/client";
import { FX_SOURCES, type TFxInfo } from "../fx/fx.schema";
import { exactMinorOrNull } from "../fx/money";
import { ECB_STALE_AFTER_DAYS } from "../fx/providers/ecb";
import { toScopeDto } from "../shared/scope";
import { EVENT_STATUSES, SOURCE_TYPES, type TEvent } from "./event.schema";
import { EVENT_STATES, EVENT_TYPES } from "../../lib/event-types";
import { MONEY_DIRECTIONS } from "../../lib/money-direction";
import { parseNullableState, parseState } from "../shared/parse-state";

/**
 * A base amount computed at read (planned events) or at write (the create answer); null when
 * it is beyond the exact range (reads only: writes refuse it).
 */
export type TCurrentBase = { amountMinor: bigint | null; baseCurrency: string; fx: TFxInfo };

/** Actual events carry a frozen snapshot; every other event is valued at the current rate. */
export function hasSnapshot(row: FinancialEvent): boolean {
  return (
    row.state === "actual" &&
    row.baseAmountMinor !== null &&
    row.baseCurrency !== null &&
    row.fxRate !== null &&
    row.fxAsOf !== null &&
    row.fxSource !== null
  );
}

/** Days after which a source's rate is stale (the mock's fixed table and identity never are). */
const STALE_AFTER_DAYS: Partial<Record<string, number>> = { ecb: ECB_STALE_AFTER_DAYS };

/**
 * The stale flag of a frozen snapshot, recomputed as the FX module computed it at write: the
 * rate's day against the day converted (occurred_on, or the day of writing if that was earlier).
 */
function snapshotStale(row: FinancialEvent): boolean {
  const limit = STALE_AFTER_DAYS[row.fxSource!];
  if (limit === undefined) return false;
  const occurred = utcDayOf(row.occurredOn);
  const written = utcDayOf(row.createdAt);
  return daysBetween(utcDayOf(row.fxAsOf!), occurred < written ? occurred : written) > limit;
}

function snapshotOf(row: FinancialEvent): Pick<TEvent, "base_amount_minor" | "base_currency" | "fx"> {
  return {
    base_amount_minor: exactMinorOrNull(row.baseAmountMinor),
    base_currency: row.baseCurrency!,
    fx: {
      rate: row.fxRate!.toFixed(8),
      as_of: utcDayOf(row.fxAsOf!),
      source: parseState(FX_SOURCES, row.fxSource!),
      kind: "snapshot",
      stale: snapshotStale(row),
    },
  };
}

function asObject(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

export function toEventDto(row: FinancialEvent, current: TCurrentBase | null): TEvent {
  const base = hasSnapshot(row)
    ? snapshotOf(row)
    : current
      ? {
          base_amount_minor: exactMinorOrNull(current.amountMinor),
          base_currency: current.baseCurrency,
          fx: current.fx,
        }
      : { base_amount_minor: null, base_currency: null, fx: null };
  return {
    id: row.id,
    type: parseState(EVENT_TYPES, row.type),
    state: parseState(EVENT_STATES, row.state),
    status: parseState(EVENT_STATUSES, row.status),
    amount_minor: exactMinorOrNull(row.amountMinor),
    currency: row.currency,
    ...base,
    occurred_on: utcDayOf(row.occurredOn),
    ...toScopeDto(row),
    category: row.category,
    description: row.description,
    source_type: parseState(SOURCE_TYPES, row.sourceType),
    integration_id: row.integrationId,
    external_id: row.externalId,
    provenance: asObject(row.provenance),
    confidence: row.confidence.toNumber(),
    payload: asObject(row.payload),
    subscription_id: row.subscriptionId,
    refunds_event_id: row.refundsEventId,
    supersedes_event_id: row.supersedesEventId,
    supersedes_event_ids: row.supersedesEventIds,
    variance_minor: exactMinorOrNull(row.varianceMinor),
    direction: parseNullableState(MONEY_DIRECTIONS, row.direction),
    fulfilled_by_event_id: row.fulfilledByEventId,
    reconciled: row.reconciled,
    created_at: row.createdAt.toISOString(),
  };
}
