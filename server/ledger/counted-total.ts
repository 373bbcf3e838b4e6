// Which events count in a total, in one place for every aggregate: confirmed events only
// (a voided event was replaced or withdrawn), and never an import event already reconciled
// with the integration event it duplicates (the contract: "excluded from aggregates").
export type TCountable = { status: string; reconciled: boolean; baseAmountMinor: bigint | null };

export function countsInTotals(event: Pick<TCountable, "status" | "reconciled">): boolean {
  return event.status === "confirmed" && !event.reconciled;
}

/**
 * The same rule as a PostgreSQL condition over the financial_events row `alias` (the read
 * models' SQL sums, server/read-models/counted.ts); the caller wraps it raw (Prisma.raw).
 * `alias` must be a plain SQL identifier. server/read-models/kernel.int.test.ts runs both on every case.
 */
export function countsInTotalsSql(alias: string): string {
  if (!/^[a-z_][a-z0-9_]*$/i.test(alias)) throw new Error(`Not an SQL alias: ${JSON.stringify(alias)}`);
  return `(${alias}.status = 'confirmed' AND ${alias}.reconciled = false)`;
}

/** The base-currency total of the events that count. Every counted event must carry its base amount. */
export function sumCountedBase(events: Iterable<TCountable>): bigint {
  let total = 0n;
  for (const event of events) {
    if (!countsInTotals(event)) continue;
    if (event.baseAmountMinor === null) throw new Error("An event that counts has no base amount: convert it first.");
    total += event.baseAmountMinor;
  }
  return total;
}
