// Ad budget changes (pinned-wave2 §3.1): the first registered agent write. The write pipeline
// (access/write-pipeline.ts) runs it: an agent's reason, the integration (404; not ads 400; not
// active 409), an `ads` grant covering its business (403), the level and limits (202 / 403),
// then `execute` writes the planned change under its approval (recordApproval). What counts
// against the limits is the increase over the campaign's budget as the service knows it
// (known-budget.ts, pinned-wave3 §1.1); the previous budget the caller sends is kept as its
// claim. An agent's executed change also records an agent decision (§3.2) in the same
// transaction. The platforms are mocks: a budget_change_applied / _failed signal moves the change
// (ingest/budget-change-signals.ts).
import { randomUUID } from "node:crypto";
import { addDays, utcDayOf, utcMidnightOf } from "../../lib/days";
import { minorToMajor } from "../../lib/money";
import type { TCaller } from "../auth/caller";
import { auditCaller } from "../audit/audit-service";
import { defineAgentWrite } from "../approvals/write-registry";
import type { TDbOrTx } from "../db/client";
import type { AdBudgetChange } from "../db/generated/client";
import { recordAgentDecisionInTx } from "../decisions/decision-service";
import { AppError } from "../errors/app-error";
import { toJsonAmount } from "../fx/base-amounts";
import { ownerSettings } from "../ledger/ledger-service";
import { heldChangeEffects } from "./held-change-effects";
import { countedIncrease, lockKnownDailyBudget } from "./known-budget";
import {
  AD_BUDGET_CHANGE_STATUSES,
  ADS_PROVIDERS,
  ZCreateAdBudgetChangeInput,
  type TAdBudgetChange,
  type TCreateAdBudgetChangeInput,
} from "./ad-budget-change.schema";
import { parseState } from "../shared/parse-state";

/** How far ahead a change may be planned (effective_on ≤ today + this). */
const MAX_DAYS_AHEAD = 365;

/**
 * What a change counts against the limits (per day) and the previous budget it answers, from the
 * campaign's budget as the service knows it (known-budget.ts), read under the integration's lock:
 * max(0, new − known), or the whole new budget when nothing is known. The caller's
 * previous_daily_budget_minor is never part of it.
 */
async function countedChange(db: TDbOrTx, ownerId: string, input: TCreateAdBudgetChangeInput) {
  const known = await lockKnownDailyBudget(db, ownerId, { integrationId: input.integration_id, campaignId: input.campaign_id });
  return countedIncrease(known, { newDailyBudgetMinor: BigInt(input.new_daily_budget_minor), currency: input.currency });
}

/**
 * What a change needs besides its body, in §1.3's order: effective_on within the owner's
 * today..today+365 (400), the integration the owner's (404), an ads one of a business with the
 * matching ad_set_id / ad_group_id (400), active (409). Run before the grant check and again
 * when the change executes (an approval may run it days later).
 */
async function checkChange(db: TDbOrTx, ownerId: string, input: TCreateAdBudgetChangeInput, now: Date) {
  const { today } = await ownerSettings(db, ownerId, now);
  const effectiveOn = input.effective_on ?? today;
  const lastDay = addDays(today, MAX_DAYS_AHEAD);
  if (effectiveOn < today || effectiveOn > lastDay) {
    throw AppError.invalidField("effective_on", `must be from today (${today}) to ${lastDay}`);
  }
  const integration = await db.integration.findFirst({ where: { id: input.integration_id, ownerId } });
  if (!integration) throw AppError.notFound("integration");
  const issues: Array<{ path: string; message: string }> = [];
  const platform = integration.provider as (typeof ADS_PROVIDERS)[number];
  if (!ADS_PROVIDERS.includes(platform)) {
    issues.push({ path: "integration_id", message: `is a ${integration.provider} integration, not social_ads or search_ads` });
  } else {
    if (input.ad_set_id !== undefined && platform !== "social_ads")
      issues.push({ path: "ad_set_id", message: "is for social_ads; use ad_group_id for search_ads" });
    if (input.ad_group_id !== undefined && platform !== "search_ads")
      issues.push({ path: "ad_group_id", message: "is for search_ads; use ad_set_id for social_ads" });
  }
  if (integration.businessId === null) issues.push({ path: "integration_id", message: "belongs to no business" });
  if (issues.length > 0) {
    throw new AppError("validation_error", issues.map((i) => `${i.path}: ${i.message}`).join("; "), { details: { issues } });
  }
  if (integration.status !== "active") {
    throw new AppError("state_conflict", `The integration is ${integration.status}, not active: reconnect it first.`);
  }
  return { integration: { ...integration, businessId: integration.businessId!, platform }, today, effectiveOn };
}

export function toAdBudgetChangeDto(row: AdBudgetChange): TAdBudgetChange {
  const previous = row.previousDailyBudgetMinor;
  const claimed = row.claimedPreviousDailyBudgetMinor;
  return {
    id: row.id,
    business_id: row.businessId,
    integration_id: row.integrationId,
    platform: parseState(ADS_PROVIDERS, row.platform),
    account_id: row.accountId,
    campaign_id: row.campaignId,
    ad_set_id: row.adSetId,
    ad_group_id: row.adGroupId,
    previous_daily_budget_minor: previous === null ? null : toJsonAmount(previous, "previous_daily_budget_minor"),
    claimed_previous_daily_budget_minor: claimed === null ? null : toJsonAmount(claimed, "claimed_previous_daily_budget_minor"),
    new_daily_budget_minor: toJsonAmount(row.newDailyBudgetMinor, "new_daily_budget_minor"),
    delta_daily_minor: previous === null ? null : toJsonAmount(row.newDailyBudgetMinor - previous, "delta_daily_minor"),
    counted_daily_minor: toJsonAmount(row.countedDailyMinor, "counted_daily_minor"),
    currency: row.currency,
    effective_on: utcDayOf(row.effectiveOn),
    status: parseState(AD_BUDGET_CHANGE_STATUSES, row.status),
    approval_id: row.approvalId,
    limit_checked: row.limitChecked,
    decision_id: row.decisionId,
    agent_id: row.agentId,
    reason: row.reason,
    note: row.note,
    created_at: row.createdAt.toISOString(),
    applied_at: row.appliedAt?.toISOString() ?? null,
    failure: row.failureCode === null ? null : { code: row.failureCode, message: row.failureMessage ?? "" },
  };
}

/**
 * The words of an executed change, its decision's title and so its ledger line (issue 37): the
 * daily budget before and after as money in its currency, never minor units ("Daily budget of
 * campaign spring: 80.00 → 250.00 EUR"; a budget the service does not know reads "unknown").
 */
export function adBudgetChangeTitle(
  campaignId: string,
  previousMinor: bigint | number | null,
  nextMinor: bigint | number,
  currency: string,
): string {
  const before = previousMinor === null ? "unknown" : minorToMajor(previousMinor, currency);
  return `Daily budget of campaign ${campaignId}: ${before} → ${minorToMajor(nextMinor, currency)} ${currency}`;
}

/** POST /v1/ad-budget-changes as a registered agent write (`ad_budget_change.create`, scope ads). */
export const adBudgetChangeWrite = defineAgentWrite({
  action: "ad_budget_change.create",
  scope: "ads",
  schema: ZCreateAdBudgetChangeInput,
  recordApproval: true,
  resourceOf: async (db, ownerId, input, now) => {
    const { integration } = await checkChange(db, ownerId, input, now);
    return { kind: "business", businessId: integration.businessId };
  },
  effectsOf: heldChangeEffects,
  amountOf: async (db, ownerId, input) => ({
    amountMinor: (await countedChange(db, ownerId, input)).countedMinor,
    currency: input.currency,
  }),
  execute: async (tx, caller: TCaller, input, approval) => {
    if (!approval) throw new AppError("internal_error", "An ad budget change executes only under an approval.");
    const { integration, today, effectiveOn } = await checkChange(tx, caller.ownerId, input, caller.now);
    // Counted again here, from what is known now: the same figure the pipeline just counted in this
    // transaction, and a held change's own when the owner approves it days later.
    const { previousMinor, countedMinor } = await countedChange(tx, caller.ownerId, input);
    const id = randomUUID();
    const agentId = caller.actor.type === "agent" ? caller.actor.agentId : null;
    const reason = input.reason ?? null;
    // An agent's executed change is also its decision, judged later by its outcome (§3.2).
    const decision = agentId
      ? await recordAgentDecisionInTx(tx, caller, {
          agentId,
          scope: { businessId: integration.businessId, projectId: null, personal: false },
          title: adBudgetChangeTitle(input.campaign_id, previousMinor, input.new_daily_budget_minor, input.currency),
          amountMinor: countedMinor,
          currency: input.currency,
          occurredOn: today,
          approvalId: approval.id,
          ref: { type: "ad_budget_change", id },
          reason,
        })
      : null;
    const row = await tx.adBudgetChange.create({
      data: {
        id,
        ownerId: caller.ownerId,
        businessId: integration.businessId,
        integrationId: integration.id,
        platform: integration.platform,
        accountId: integration.accountId,
        campaignId: input.campaign_id,
        adSetId: input.ad_set_id ?? null,
        adGroupId: input.ad_group_id ?? null,
        previousDailyBudgetMinor: previousMinor,
        claimedPreviousDailyBudgetMinor:
          input.previous_daily_budget_minor === undefined ? null : BigInt(input.previous_daily_budget_minor),
        newDailyBudgetMinor: BigInt(input.new_daily_budget_minor),
        countedDailyMinor: countedMinor,
        currency: input.currency,
        effectiveOn: utcMidnightOf(effectiveOn),
        approvalId: approval.id,
        limitChecked: approval.limitChecked,
        decisionId: decision?.id ?? null,
        agentId,
        reason,
        note: input.note ?? null,
      },
    });
    await auditCaller(
      tx,
      caller,
      "ad_budget_change.created",
      { type: "ad_budget_change", id },
      {
        integration_id: integration.id,
        campaign_id: input.campaign_id,
        previous_daily_budget_minor: previousMinor === null ? null : toJsonAmount(previousMinor, "previous_daily_budget_minor"),
        claimed_previous_daily_budget_minor: input.previous_daily_budget_minor ?? null,
        new_daily_budget_minor: input.new_daily_budget_minor,
        counted_daily_minor: toJsonAmount(countedMinor, "counted_daily_minor"),
        currency: input.currency,
        effective_on: effectiveOn,
        approval_id: approval.id,
        ...(decision ? { decision_id: decision.id } : {}),
      },
    );
    return toAdBudgetChangeDto(row);
  },
});
