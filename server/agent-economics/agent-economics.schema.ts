// Agent economics (pinned-wave2 §3.3): per agent, what its writes asked and moved, its ad budget
// changes, the events attributed to it and what its decisions produced, over a period.
import { z } from "zod";
import { AMOUNT_RANGE_RULE } from "../fx/base-amounts";
import { ZFxSummary } from "../fx/fx.schema";
import {
  PERIOD_RULES,
  ZAggregateCurrencies,
  ZDisplayCurrencyQuery,
  ZMinor,
  ZPeriodQuery,
  ZRatio,
} from "../read-models/read-model.schema";
import { ZStoredDate, ZUuid } from "../shared/schemas";

export const ZEconomicsQuery = ZPeriodQuery.extend(ZDisplayCurrencyQuery.shape).extend({
  business_id: ZUuid.optional().describe(
    "Only what concerns this business (its projects included): every figure is restricted to it. An agent needs a grant " +
      "of any scope covering it (else 403 scope_denied); unknown or another owner's → 404.",
  ),
});
export type TEconomicsQuery = z.infer<typeof ZEconomicsQuery>;

const ZCount = z.number().int();

export const ZEconomicsWrites = z
  .object({
    auto_approved: ZCount.describe("Writes executed at once (within the grant's limits)."),
    pending: ZCount.describe("Writes held for the owner, still waiting."),
    approved: ZCount.describe("Held writes the owner approved (and so executed)."),
    rejected: ZCount.describe("Held writes the owner rejected."),
    denied: ZCount.describe("The agent's access.denied audit entries (scope_denied, limit_exceeded)."),
    executed: ZCount.describe("auto_approved + approved."),
  })
  .meta({ id: "AgentEconomicsWrites" });

export const ZEconomicsAdBudget = z
  .object({
    changes: ZCount.describe("Ad budget changes the agent wrote."),
    planned: ZCount,
    applied: ZCount,
    failed: ZCount,
    daily_increase_minor: ZMinor.describe(
      "Σ counted_daily_minor of the changes not failed: each change's increase over the campaign's budget as the service " +
        "knew it (max(0, new − known); the whole new budget when unknown), never over a previous budget the agent " +
        "claimed. Each currency's sum at today's rate.",
    ),
  })
  .meta({ id: "AgentEconomicsAdBudget" });

export const ZEconomicsAttributed = z
  .object({
    in_minor: ZMinor.describe("Σ of the counted actual events with this agent_id whose money comes in (K3, K4)."),
    out_minor: ZMinor.describe("… and whose money goes out. agent_action events move no money and count in neither."),
  })
  .meta({ id: "AgentEconomicsAttributed" });

export const ZEconomicsDecisions = z
  .object({
    count: ZCount.describe("Decisions whose occurred_on is in the period."),
    pending: ZCount,
    measured: ZCount,
    inconclusive: ZCount,
    better: ZCount,
    as_expected: ZCount,
    worse: ZCount,
    value_minor: ZMinor.describe(
      "Σ delta_minor of the measured outcomes, the sign flipped for outflow and ad_spend (less spent is worth more).",
    ),
  })
  .meta({ id: "AgentEconomicsDecisions" });

/** The figures of one agent, or of all of them (totals). */
export const ZEconomicsFigures = z.object({
  writes: ZEconomicsWrites,
  committed_minor: ZMinor.describe("Σ amount_minor of the executed writes' approvals, each currency's sum at today's rate."),
  ad_budget: ZEconomicsAdBudget,
  attributed: ZEconomicsAttributed,
  decisions: ZEconomicsDecisions,
  roi: ZRatio.describe(
    "(decisions.value_minor − committed_minor) / committed_minor, 4 decimals; null when nothing was committed.",
  ),
});
export type TEconomicsFigures = z.infer<typeof ZEconomicsFigures>;

export const ZAgentEconomics = z
  .object({
    agent_id: ZUuid,
    name: z.string(),
    status: z.enum(["active", "suspended", "revoked"]),
    ...ZEconomicsFigures.shape,
  })
  .meta({ id: "AgentEconomics" });
export type TAgentEconomics = z.infer<typeof ZAgentEconomics>;

const ZEconomicsPeriod = ZAggregateCurrencies.extend({
  from: ZStoredDate,
  to: ZStoredDate,
  business_id: ZUuid.nullable().describe("The business the figures are restricted to; null for all."),
});

export const ZAgentsEconomicsResponse = z.object({
  data: ZEconomicsPeriod.extend({
    agents: z.array(ZAgentEconomics).describe("The owner's agents, newest first; for an agent, itself alone."),
    totals: ZEconomicsFigures.describe("Σ over the agents listed (in the base currency, then shown); roi recomputed."),
  }),
  fx: ZFxSummary,
});
export type TAgentsEconomicsResponse = z.infer<typeof ZAgentsEconomicsResponse>;

export const ZAgentEconomicsResponse = z.object({
  data: ZEconomicsPeriod.extend(ZAgentEconomics.shape),
  fx: ZFxSummary,
});
export type TAgentEconomicsResponse = z.infer<typeof ZAgentEconomicsResponse>;

/** What every economics operation's description says. */
export const ECONOMICS_RULES =
  "Period: approvals, ad budget changes and audit entries by their created_at day in the owner's timezone; events and " +
  "decisions by occurred_on. " +
  PERIOD_RULES +
  " writes count the agent's write approvals by status; executed = auto_approved + approved; denied = its access.denied " +
  "audit entries. committed_minor = Σ amount_minor of the executed writes' approvals. ad_budget counts the agent's " +
  "changes by status; daily_increase_minor = Σ counted_daily_minor (what each counted against the agent's limits: " +
  "its increase over the budget the service knew) of those not failed. attributed = the counted actual " +
  "events with its agent_id, by direction. decisions: their outcomes (as GET /v1/decisions/{id}/review computes them; " +
  "a closed window is measured and stored by this read); value_minor = Σ delta_minor of the measured ones, the sign " +
  "flipped for outflow and ad_spend. roi = (value − committed) / committed, null when committed is 0. " +
  "business_id: writes and denials whose resource is the business or one of its projects (a write's resource: its " +
  "business_id, its project's or its integration's business), that business's changes, events and decisions. " +
  "Amounts are integer minor units in the base currency (records in other currencies: each currency's sum at today's " +
  "rate, half even; events: their frozen base amounts), then converted once to display_currency; roi from the shown " +
  "amounts. " +
  AMOUNT_RANGE_RULE +
  " Experimental.";
