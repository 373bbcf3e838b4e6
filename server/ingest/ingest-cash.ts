// The snapshot path: account balances from integrations (data_class real). One snapshot per
// account and day, external_id <provider>:<account_id>:<YYYY-MM-DD>; a same-day repeat
// overwrites only with a later as_of (the rule lives in cash-service's upsertCashSnapshots,
// shared with the owner's manual entry).
import { cashExternalId, upsertCashSnapshots } from "../cash/cash-service";
import type { TTx } from "../db/client";
import { providerInfo } from "../integrations/providers";
import { ZCashSnapshotInput, type TRejectedItem, type TSnapshotResult } from "./ingest.schema";

export async function ingestCashSnapshotsInTx(
  tx: TTx,
  ownerId: string,
  inputs: readonly unknown[],
  options: { requestId?: string | null } = {},
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

  const writes = [];
  const positions: number[] = [];
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
    positions.push(index);
    writes.push({
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
  const result = await upsertCashSnapshots(tx, ownerId, writes, {
    actor: { type: "integration", ownerId, integrationId: integrationIds[0] ?? "" },
    requestId: options.requestId ?? null,
  });
  for (const r of result.rejected) {
    rejected.push({
      index: positions[r.index]!,
      external_id: r.external_id,
      code: r.code as TRejectedItem["code"],
      message: r.message,
    });
  }
  rejected.sort((a, b) => a.index - b.index);
  return { inserted: result.inserted, deduped: result.deduped, rejected };
}
