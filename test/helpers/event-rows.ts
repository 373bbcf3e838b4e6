// Financial events written as rows, for read tests that need a fixed "today" or states one API
// call cannot make (voided, fulfilled, reconciled): the ledger's writes date "today" by the
// wall clock. Base EUR: an actual event is frozen at 1:1 as the ledger would (identity for EUR,
// mock otherwise); a planned one has no base amount yet.
import type { TTestApi } from "./api";

export type TEventRow = {
  businessId?: string | null;
  projectId?: string | null;
  personal?: boolean;
  type: string;
  state?: string;
  status?: string;
  reconciled?: boolean;
  direction?: string | null;
  amount: bigint;
  currency?: string;
  /** occurred_on, YYYY-MM-DD. */
  on: string;
  description?: string;
  subscriptionId?: string | null;
  fulfilledBy?: string | null;
  agentId?: string | null;
  /** created_at (default: the database's now). */
  createdAt?: string;
};

export async function insertEventRow(api: TTestApi, ownerId: string, f: TEventRow): Promise<string> {
  const actual = (f.state ?? "actual") === "actual";
  const currency = f.currency ?? "EUR";
  const row = await api.db.financialEvent.create({
    data: {
      ownerId,
      businessId: f.businessId ?? null,
      projectId: f.projectId ?? null,
      personal: f.personal ?? false,
      type: f.type,
      state: f.state ?? "actual",
      status: f.status ?? "confirmed",
      reconciled: f.reconciled ?? false,
      direction: f.direction ?? null,
      amountMinor: f.amount,
      currency,
      baseAmountMinor: actual ? f.amount : null,
      baseCurrency: actual ? "EUR" : null,
      fxRate: actual ? "1" : null,
      fxAsOf: actual ? new Date(`${f.on}T00:00:00Z`) : null,
      fxSource: actual ? (currency === "EUR" ? "identity" : "mock") : null,
      occurredOn: new Date(`${f.on}T00:00:00Z`),
      description: f.description ?? null,
      sourceType: "MANUAL",
      subscriptionId: f.subscriptionId ?? null,
      fulfilledByEventId: f.fulfilledBy ?? null,
      agentId: f.agentId ?? null,
      ...(f.createdAt ? { createdAt: new Date(f.createdAt), updatedAt: new Date(f.createdAt) } : {}),
    },
    select: { id: true },
  });
  return row.id;
}
