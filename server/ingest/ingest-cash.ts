// The snapshot path: account balances from integrations (data_class real). One snapshot per
// scope (business or personal), account and day, external_id <provider>:<account_id>:<YYYY-MM-DD>;
// a same-day repeat in the same scope overwrites only with a later as_of (the rule lives in cash-service's upsertCashSnapshots,
// shared with the owner's manual entry).
import { cashExternalId, upsertCashSnapshots, type TCashSnapshotWrite } from "../cash/cash-service";
import type { TTx } from "../db/client";
import { touchLastSync } from "../sources/integration-store";
import { providerInfo } from "../sources/providers";
import { ZCashSnapshotInput, type TRejectedItem, type TSnapshotResult } from "./ingest.schema";

export async function ingestCashSnapshotsInTx(
  tx: TTx,
  ownerId: string,
  inputs: readonly unknown[],
  options: { requestId?: string | null; now?: Date } = {},
): Promise<TSnapshotResult> {
  const rejected: TRejectedItem[] = [];
  const parsed = inputs.map((raw, index) => ({ index, result: ZCashSnapshotInput.safeParse(raw) }));
  const valid = parsed.flatMap((p) => (p.result.success ? [{ index: p.index, input: p.result.data }] : []));
  for (const p of parsed) {
    if (p.result.success) continue;
    const issue = p.result.error.issues[0]!;
    rejected.push({
      index: p.index,
      external_id: null,
      code: "validation_error",
      message: `${issue.path.map(String).join(".")}: ${issue.message}`,
    });
  }
  const integrationIds = [...new Set(valid.map((v) => v.input.provenance.source.integration_id))];
  const integrations = new Map(
    (await tx.integration.findMany({ where: { ownerId, id: { in: integrationIds } }, select: { id: true, provider: true } })).map(
      (i) => [i.id, i],
    ),
  );

  // Grouped by integration: each write is audited as its own integration's.
  const groups = new Map<string, { positions: number[]; writes: TCashSnapshotWrite[] }>();
  for (const { index, input } of valid) {
    const integration = integrations.get(input.provenance.source.integration_id);
    if (!integration) {
      rejected.push({
        index,
        external_id: null,
        code: "validation_error",
        message: "provenance.source.integration_id: no such integration",
      });
      continue;
    }
    const asOf = new Date(input.as_of);
    const group = groups.get(integration.id) ?? { positions: [], writes: [] };
    groups.set(integration.id, group);
    group.positions.push(index);
    group.writes.push({
      business_id: input.business_id ?? null,
      personal: input.personal === true,
      amount_minor: input.amount_minor,
      currency: input.currency,
      as_of: asOf,
      payload: input.payload,
      provenance: {
        source: {
          type: providerInfo(integration.provider)?.source_type ?? "IMPORT",
          integration_id: integration.id,
          // The day key is always the integration's provider, whatever the sender wrote.
          external_id: cashExternalId(integration.provider, input.payload.account_id.trim(), asOf),
        },
      },
    });
  }
  let inserted = 0;
  let deduped = 0;
  for (const [integrationId, group] of groups) {
    const result = await upsertCashSnapshots(tx, ownerId, group.writes, {
      now: options.now ?? new Date(),
      audit: { actor: { type: "integration", ownerId, integrationId }, requestId: options.requestId ?? null },
    });
    inserted += result.inserted;
    deduped += result.deduped;
    for (const r of result.rejected) {
      rejected.push({
        index: group.positions[r.index]!,
        external_id: r.external_id,
        code: r.code as TRejectedItem["code"],
        message: r.message,
      });
    }
  }
  await touchLastSync(tx, [...groups.keys()]);
  rejected.sort((a, b) => a.index - b.index);
  return { inserted, deduped, rejected };
}
