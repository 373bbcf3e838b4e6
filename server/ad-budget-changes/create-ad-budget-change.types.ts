import type { TProcedureMeta } from "../trpc/meta";
import { ZCreateAdBudgetChangeInput, ZCreateAdBudgetChangeResponse } from "./ad-budget-change.schema";

export const createAdBudgetChangeMeta: TProcedureMeta = {
  openapi: {
    method: "POST",
    path: "/v1/ad-budget-changes",
    tags: ["Ads"],
    summary: "Plan a campaign's daily budget change",
    description:
      "Plans a change of a campaign's daily budget on an active social_ads or search_ads integration (unknown or another " +
      "owner's: 404; not ads, or ad_set_id / ad_group_id on the wrong platform: 400; not active: 409 state_conflict; " +
      "effective_on from the owner's today to today + 365). The owner's change is written at once (201) with an " +
      "auto_approved approval (trigger owner, limit_checked null). An agent needs the ads scope with a grant covering the " +
      "integration's business (else 403 scope_denied, audited) and a reason. At level recommend the change is held: 202 " +
      "with a pending approval (level_recommend), nothing else written; approving it writes the change as the agent " +
      "(limit_checked null), rejecting writes nothing. At level execute the counted amount — max(0, new − known), where " +
      "known is the campaign's daily budget as the service knows it (the newer of the latest applied change of the " +
      "integration and campaign and the budget the platform last reported), or new when nothing is known; the " +
      "previous_daily_budget_minor the caller sends is kept as claimed_previous_daily_budget_minor and never counted — " +
      "is counted against the grant's daily and monthly limits as exact integers: within them " +
      "(or none) 201 with an auto_approved approval (within_limits) whose id is limit_checked; over them, or in another " +
      "currency than the limits', 202 pending (over_limit) or, with over_limit deny, 403 limit_exceeded. An agent's " +
      'executed change also records an agent decision ("Daily budget of campaign <campaign_id>: <known previous | unknown> → <new> <currency>", in major units; amount = ' +
      "the counted amount): decision_id. A held change is counted again when the owner approves it, from what is known " +
      "then. The change is planned until the integration's budget_change_applied or " +
      "budget_change_failed signal moves it to applied or failed.",
  },
  successStatus: 201,
  otherSuccess: [
    {
      status: 202,
      body: "pending_approval",
      description: "An agent's change held for the owner's approval (level recommend, or over the grant's limits).",
    },
  ],
};
export const ZCreateAdBudgetChangeRequest = ZCreateAdBudgetChangeInput;
export { ZCreateAdBudgetChangeResponse };
