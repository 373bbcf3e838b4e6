// An Integration row in API form: never its secret, credentials or config.
import type { Integration } from "../db/generated/client";
import { INTEGRATION_STATUSES, type TIntegration } from "./integration.schema";
import { providerInfo, PROVIDERS } from "../sources/providers";
import { parseState } from "../shared/parse-state";

export type TIntegrationRow = Pick<
  Integration,
  "id" | "provider" | "name" | "businessId" | "status" | "accountId" | "lastSyncAt" | "createdAt"
>;

/** The columns a DTO needs: select these so secrets are never even read. */
export const INTEGRATION_DTO_FIELDS = {
  id: true,
  provider: true,
  name: true,
  businessId: true,
  status: true,
  accountId: true,
  lastSyncAt: true,
  createdAt: true,
} as const;

export function toIntegrationDto(row: TIntegrationRow): TIntegration {
  const info = providerInfo(row.provider);
  return {
    id: row.id,
    provider: parseState(PROVIDERS, row.provider),
    kind: info?.kind ?? "webhook",
    name: row.name,
    business_id: row.businessId,
    status: parseState(INTEGRATION_STATUSES, row.status),
    account_id: row.accountId,
    last_sync_at: row.lastSyncAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
  };
}
