// A campaign's daily budget as the service knows it (pinned-wave3 §1.1): the newest of the
// latest `applied` change of that integration and campaign (at its applied_at) and the latest
// budget the platform reported for it (campaign_budget_reports, at its reported_at; on a tie the
// platform's figure wins: it is what the platform says it runs). Nothing known → null. An agent's
// limit counts the increase over this figure, never over the previous budget the agent claims.
import type { TDbOrTx } from "../db/client";

export type TCampaignRef = { integrationId: string; campaignId: string };
export type TKnownBudget = { dailyBudgetMinor: bigint; currency: string; at: Date; source: "applied_change" | "platform" };

const keyOf = (ref: TCampaignRef) => `${ref.integrationId}|${ref.campaignId}`;

/** The known budget of each campaign named (one statement; campaigns with none are absent). */
export async function knownDailyBudgets(
  db: TDbOrTx,
  ownerId: string,
  campaigns: readonly TCampaignRef[],
): Promise<Map<string, TKnownBudget>> {
  const unique = [...new Map(campaigns.map((c) => [keyOf(c), c])).values()];
  if (unique.length === 0) return new Map();
  const rows = await db.$queryRaw<
    Array<{ integration_id: string; campaign_id: string; amount: string; currency: string; at: Date; source: string }>
  >`
    SELECT k.integration_id::text AS integration_id, k.campaign_id, known.amount::text AS amount,
           known.currency::text AS currency, known.at, known.source
      FROM unnest(${unique.map((c) => c.integrationId)}::uuid[], ${unique.map((c) => c.campaignId)}::text[])
           AS k(integration_id, campaign_id)
      CROSS JOIN LATERAL (
        SELECT * FROM (
          (SELECT c.new_daily_budget_minor AS amount, c.currency, c.applied_at AS at, 'applied_change' AS source, 1 AS rank
             FROM ad_budget_changes c
            WHERE c.owner_id = ${ownerId}::uuid AND c.integration_id = k.integration_id
              AND c.campaign_id = k.campaign_id AND c.status = 'applied'
            ORDER BY c.applied_at DESC, c.created_at DESC, c.id DESC
            LIMIT 1)
          UNION ALL
          (SELECT r.daily_budget_minor, r.currency, r.reported_at, 'platform', 0
             FROM campaign_budget_reports r
            WHERE r.owner_id = ${ownerId}::uuid AND r.integration_id = k.integration_id AND r.campaign_id = k.campaign_id
            ORDER BY r.reported_at DESC, r.created_at DESC, r.id DESC
            LIMIT 1)
        ) newest
        ORDER BY newest.at DESC, newest.rank
        LIMIT 1
      ) known`;
  return new Map(
    rows.map((row) => [
      keyOf({ integrationId: row.integration_id, campaignId: row.campaign_id }),
      {
        dailyBudgetMinor: BigInt(row.amount),
        currency: row.currency,
        at: row.at,
        source: row.source as TKnownBudget["source"],
      },
    ]),
  );
}

/**
 * The known budget of one campaign, read for a write that counts against it. The integration's
 * row is share-locked first, in its own statement: the writers of what is known (a signal
 * ingest moving a change to applied, a platform's budget report) update that row in their
 * transaction (last_sync_at), so they wait for this write and it for them, and the budget read
 * next (a new statement, a fresh snapshot under READ COMMITTED) is the one that stays true until
 * this transaction commits. Read in the same transaction as the limit's counter.
 */
export async function lockKnownDailyBudget(tx: TDbOrTx, ownerId: string, campaign: TCampaignRef): Promise<TKnownBudget | null> {
  await tx.$queryRaw`SELECT id FROM integrations WHERE id = ${campaign.integrationId}::uuid AND owner_id = ${ownerId}::uuid FOR SHARE`;
  return (await knownDailyBudgets(tx, ownerId, [campaign])).get(keyOf(campaign)) ?? null;
}

export function knownBudgetOf(known: ReadonlyMap<string, TKnownBudget>, campaign: TCampaignRef): TKnownBudget | null {
  return known.get(keyOf(campaign)) ?? null;
}

/**
 * What a change to `newBudget` counts (per day) and the previous budget it answers: the known
 * budget when it is in the change's currency (another currency cannot be compared exactly, so it
 * is unknown), and the increase over it, max(0, new − known); unknown → the whole new budget.
 */
export function countedIncrease(
  known: TKnownBudget | null,
  change: { newDailyBudgetMinor: bigint; currency: string },
): { previousMinor: bigint | null; countedMinor: bigint } {
  const previous = known !== null && known.currency === change.currency ? known.dailyBudgetMinor : null;
  if (previous === null) return { previousMinor: null, countedMinor: change.newDailyBudgetMinor };
  const increase = change.newDailyBudgetMinor - previous;
  return { previousMinor: previous, countedMinor: increase > 0n ? increase : 0n };
}
