// The ad budget changes an ads account lists (pinned-wave2 §2.8 `budget_changes`): the changes
// recorded by POST /v1/ad-budget-changes (§3.1) on the account's integration and business (and
// its account id, when both name one), newest first, at most ADS_BUDGET_CHANGES_LIMIT per
// account. One query for every account: a lateral, limited scan per account.
import { utcDayOf } from "../../lib/days";
import type { TDbOrTx } from "../db/client";
import { toJsonAmount } from "../fx/base-amounts";
import { ADS_BUDGET_CHANGES_LIMIT, type TAdsBudgetChange } from "./ads.schema";

/** An ads account as the read model keys it: (platform, account_id, business_id) and the integration behind it. */
export type TAdsAccountKey = {
  key: string;
  platform: string;
  accountId: string | null;
  businessId: string;
  integrationId: string | null;
};

/** Each account's budget changes (by TAdsAccountKey.key), newest first, at most ADS_BUDGET_CHANGES_LIMIT each. */
export async function findAccountBudgetChanges(
  db: TDbOrTx,
  ownerId: string,
  accounts: readonly TAdsAccountKey[],
): Promise<Map<string, TAdsBudgetChange[]>> {
  const byKey = new Map<string, TAdsBudgetChange[]>(accounts.map((account) => [account.key, []]));
  // A change is made on an integration: an account no integration stands behind has none.
  const linked = accounts.filter((a) => a.integrationId !== null);
  if (linked.length === 0) return byKey;
  const rows = await db.$queryRaw<
    {
      key: string;
      id: string;
      campaign_id: string;
      status: TAdsBudgetChange["status"];
      new_daily_budget_minor: bigint;
      currency: string;
      effective_on: Date;
    }[]
  >`
    SELECT k.key, c.id, c.campaign_id, c.status, c.new_daily_budget_minor, c.currency, c.effective_on
    FROM unnest(
      ${linked.map((a) => a.key)}::text[],
      ${linked.map((a) => a.integrationId)}::uuid[],
      ${linked.map((a) => a.businessId)}::uuid[],
      ${linked.map((a) => a.accountId)}::text[]
    ) AS k(key, integration_id, business_id, account_id)
    CROSS JOIN LATERAL (
      SELECT c.* FROM ad_budget_changes c
      WHERE c.owner_id = ${ownerId}::uuid AND c.integration_id = k.integration_id AND c.business_id = k.business_id
        AND (k.account_id IS NULL OR c.account_id IS NULL OR c.account_id = k.account_id)
      ORDER BY c.created_at DESC, c.id DESC
      LIMIT ${ADS_BUDGET_CHANGES_LIMIT}
    ) c
    ORDER BY k.key, c.created_at DESC, c.id DESC`;
  for (const row of rows) {
    byKey.get(row.key)!.push({
      id: row.id,
      campaign_id: row.campaign_id,
      status: row.status,
      // One stored amount, refused at write time beyond the exact range: never out of range here.
      new_daily_budget_minor: toJsonAmount(row.new_daily_budget_minor, "budget_changes.new_daily_budget_minor"),
      currency: row.currency.trim(),
      effective_on: utcDayOf(row.effective_on),
    });
  }
  return byKey;
}
