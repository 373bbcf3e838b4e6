// Test fixtures for the reconciliation: an owner with a business, the manual_import
// integration (bank statement lines, source IMPORT) and a payments_a one (PAYMENTS_API), and
// events written through the ingest path as the import and the webhooks write them.
import { randomUUID } from "node:crypto";
import type { TDb } from "../db/client";
import { ingestEvents } from "../ingest/ingest-service";

export type TReconciliationOwner = {
  ownerId: string;
  businessId: string;
  importIntegrationId: string;
  paymentsIntegrationId: string;
  /** A bank statement line: money out = expense, money in = revenue. Answers the event id. */
  bankLine: (externalId: string, amount: number, occurredOn: string, extra?: TLine) => Promise<string>;
  /** An event of the payments integration. Answers the event id. */
  payment: (externalId: string, amount: number, occurredOn: string, extra?: TLine) => Promise<string>;
};

type TLine = { type?: string; currency?: string; payload?: Record<string, unknown>; createdAt?: Date };

export async function createReconciliationOwner(db: TDb, label = "owner"): Promise<TReconciliationOwner> {
  const owner = await db.owner.create({ data: { email: `${label}-${randomUUID()}@example.test`, baseCurrency: "EUR" } });
  const business = await db.business.create({ data: { ownerId: owner.id, name: `${label} business`, currency: "EUR" } });
  const integration = (provider: string) =>
    db.integration.create({
      data: { ownerId: owner.id, provider, name: provider, businessId: business.id, accountId: `acct_${randomUUID()}` },
    });
  const manual = await integration("manual_import");
  const payments = await integration("payments_a");

  const write = async (
    integrationId: string,
    sourceType: "IMPORT" | "PAYMENTS_API",
    externalId: string,
    amount: number,
    occurredOn: string,
    extra: TLine,
    payload: Record<string, unknown>,
  ) => {
    const result = await ingestEvents(
      db,
      owner.id,
      [
        {
          integration_id: integrationId,
          external_id: externalId,
          type: extra.type ?? "expense",
          state: "actual",
          amount_minor: amount,
          currency: extra.currency ?? "EUR",
          occurred_on: occurredOn,
          source_type: sourceType,
          payload: { ...payload, ...extra.payload },
        },
      ],
      { now: extra.createdAt ?? new Date(`${occurredOn}T12:00:00Z`) },
    );
    if (result.inserted !== 1) throw new Error(`not inserted: ${JSON.stringify(result)}`);
    return (
      await db.financialEvent.findUniqueOrThrow({
        where: { integrationId_externalId: { integrationId, externalId } },
        select: { id: true },
      })
    ).id;
  };

  return {
    ownerId: owner.id,
    businessId: business.id,
    importIntegrationId: manual.id,
    paymentsIntegrationId: payments.id,
    bankLine: (externalId, amount, occurredOn, extra = {}) =>
      write(manual.id, "IMPORT", externalId, amount, occurredOn, extra, {
        batch_id: "imp_test",
        counterparty: "ACME",
        reference: externalId,
        row: 1,
      }),
    payment: (externalId, amount, occurredOn, extra = {}) =>
      write(payments.id, "PAYMENTS_API", externalId, amount, occurredOn, extra, {}),
  };
}
