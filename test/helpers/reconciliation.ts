// Test fixtures for the reconciliation: an owner with a business, the manual_import
// integration (bank statement lines, source IMPORT) and a payments_a one (PAYMENTS_API), and
// events written through the ingest path as the import and the webhooks write them. Both
// integrations are connected on CONNECTED_AT (before every date the tests use), so the payments
// integration covers a line's date once it has delivered something after it.
import { randomUUID } from "node:crypto";
import type { TDb, TDbOrTx } from "../../server/db/client";
import { ingestEvents } from "../../server/ingest/ingest-service";

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

/** When the fixture's integrations were connected. */
export const CONNECTED_AT = new Date("2026-01-01T00:00:00Z");

export async function createReconciliationOwner(db: TDb, label = "owner"): Promise<TReconciliationOwner> {
  const owner = await db.owner.create({ data: { email: `${label}-${randomUUID()}@example.test`, baseCurrency: "EUR" } });
  const business = await db.business.create({ data: { ownerId: owner.id, name: `${label} business`, currency: "EUR" } });
  const integration = (provider: string) =>
    db.integration.create({
      data: {
        ownerId: owner.id,
        provider,
        name: provider,
        businessId: business.id,
        accountId: `acct_${randomUUID()}`,
        createdAt: CONNECTED_AT,
      },
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

export type TSeedLines = {
  ownerId: string;
  businessId: string;
  /** The owner's manual_import integration. */
  integrationId: string;
  /** payload.batch_id: the import the lines came from. */
  importId: string;
  count: number;
  /** The first line's date; lines are spread over `days` days from it. */
  from: string;
  days: number;
  currency?: string;
  createdAt?: Date;
};

/**
 * Imported bank lines as a confirmed statement stores them (source IMPORT, actual, confirmed,
 * payload.batch_id), written by one set-based INSERT: 100,000 lines in seconds, where the
 * ingest path would take minutes. Every day gets as many lines money out (expense, even
 * rows) as money in (revenue, odd rows).
 */
export async function seedImportedLines(db: TDbOrTx, seed: TSeedLines): Promise<void> {
  const currency = seed.currency ?? "EUR";
  const createdAt = seed.createdAt ?? new Date();
  await db.$executeRaw`
    INSERT INTO financial_events (id, owner_id, business_id, type, state, status, amount_minor, currency,
                                  base_amount_minor, base_currency, occurred_on, source_type, integration_id,
                                  external_id, chain_external_id, payload, created_at, updated_at)
    SELECT gen_random_uuid(), ${seed.ownerId}::uuid, ${seed.businessId}::uuid,
           CASE WHEN g % 2 = 0 THEN 'expense' ELSE 'revenue' END, 'actual', 'confirmed',
           100 + (g * 7919) % 500000, ${currency}, 100 + (g * 7919) % 500000, ${currency},
           ${seed.from}::date + ((g / 2) % ${seed.days}::int), 'IMPORT', ${seed.integrationId}::uuid,
           'imp_seed_' || ${seed.importId} || '_' || g, 'imp_seed_' || ${seed.importId} || '_' || g,
           jsonb_build_object('batch_id', ${seed.importId}::text, 'row', g, 'counterparty', 'Seed ' || (g % 97)),
           ${createdAt}, ${createdAt}
      FROM generate_series(1, ${seed.count}::int) AS g`;
}
