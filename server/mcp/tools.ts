// The MCP tools: one per /v1 operation an agent may call (its procedure's access rule admits
// agents: `owner_or_agent`). Each names the procedure and takes its meta and input schema from
// the operation's *.types.ts, so method, path, summary, description, experimental flag,
// deprecation and input are the REST operation's own; a test keeps this list equal to the
// route table's agent operations and each schema identical to the procedure's.
//
// A tool calls its operation through the /v1 REST layer (operation-call.ts), never around it.
import { z } from "zod";
import { createAdBudgetChangeMeta, ZCreateAdBudgetChangeRequest } from "../ad-budget-changes/create-ad-budget-change.types";
import { findAgentsEconomicsMeta, ZFindAgentsEconomicsRequest } from "../agent-economics/find-agents-economics.types";
import { getAgentEconomicsMeta, ZGetAgentEconomicsRequest } from "../agent-economics/get-agent-economics.types";
import { getMyEconomicsMeta, ZGetMyEconomicsRequest } from "../agent-economics/get-my-economics.types";
import { getAgentMeMeta, ZGetAgentMeRequest } from "../agents/get-agent-me.types";
import { createDataRequestMeta, ZCreateDataRequestRequest } from "../approvals/create-data-request.types";
import { createAgentDecisionMeta, ZCreateAgentDecisionRequest } from "../decisions/create-agent-decision.types";
import { getDecisionReviewMeta, ZGetDecisionReviewRequest } from "../decisions/get-decision-review.types";
import { getFxRatesMeta, ZGetFxRatesRequest } from "../fx/get-fx-rates.types";
import { getMeMeta, ZGetMeRequest } from "../me/get-me.types";
import { getBusinessSaasMetricsMeta, ZGetBusinessSaasMetricsRequest } from "../read-models/get-business-saas-metrics.types";
import { getCashHistoryMeta, ZGetCashHistoryRequest } from "../reports/get-cash-history.types";
import { getProfitAndLossMeta, ZGetProfitAndLossRequest } from "../reports/get-profit-and-loss.types";
import {
  getBusinessFinancialSummaryMeta,
  ZGetBusinessFinancialSummaryRequest,
} from "../read-models/get-business-financial-summary.types";
import { getBusinessContextMeta, ZGetBusinessContextRequest } from "../read-models/get-business-context.types";
import { getBusinessProjectHealthMeta, ZGetBusinessProjectHealthRequest } from "../read-models/get-business-project-health.types";
import {
  findBusinessSubscriptionsMeta,
  ZFindBusinessSubscriptionsRequest,
} from "../subscriptions/find-business-subscriptions.types";
import {
  getPersonalFinancialSummaryMeta,
  ZGetPersonalFinancialSummaryRequest,
} from "../read-models/get-personal-financial-summary.types";
import { getBusinessForecastMeta, ZGetBusinessForecastRequest } from "../read-models/get-business-forecast.types";
import { getPersonalForecastMeta, ZGetPersonalForecastRequest } from "../read-models/get-personal-forecast.types";
import { getFreeCapitalMeta, ZGetFreeCapitalRequest } from "../read-models/get-free-capital.types";
import { getBusinessAdsMeta, ZGetBusinessAdsRequest } from "../read-models/get-business-ads.types";
import { findEventsMeta, ZFindEventsRequest } from "../ledger/find-events.types";
import { getEventMeta, ZGetEventRequest } from "../ledger/get-event.types";
import { getOverviewMeta, ZGetOverviewRequest } from "../read-models/get-overview.types";
import { getForecastMeta, ZGetForecastRequest } from "../read-models/get-forecast.types";
import { getCoverageMeta, ZGetCoverageRequest } from "../read-models/get-coverage.types";
import { getDailyBriefMeta, ZGetDailyBriefRequest } from "../read-models/get-daily-brief.types";
import { getAdsMeta, ZGetAdsRequest } from "../read-models/get-ads.types";
import { IDEMPOTENCY_KEY_MAX } from "../rest/idempotency";
import { runSimulationMeta, ZRunSimulationRequest } from "../simulations/run-simulation.types";
import type { TScope } from "../auth/scopes";
import type { TAccessRule, TProcedureMeta } from "../trpc/meta";
import {
  META_DEPRECATION,
  META_OPERATION,
  META_STABILITY,
  toolDescription,
  versioningProblems,
  type TStability,
  type TToolDeprecation,
} from "./versioning";

export type TMcpToolDeclaration = {
  /** snake_case, from the procedure's file name (verb_noun). */
  name: string;
  /** The procedure's path in the app router (`adBudgetChanges.create`). */
  procedure: string;
  /** The procedure's meta, from its *.types.ts. */
  meta: TProcedureMeta;
  /** The procedure's input schema, from its *.types.ts: path parameters and query or body fields in one object. */
  input: z.ZodObject;
  /** Versioning 7: every new tool starts experimental. */
  stability: TStability;
  /** A deprecation of the tool itself (its operation's deprecation applies without one). */
  deprecation?: TToolDeprecation;
  /** A POST that writes nothing (simulations). */
  readOnly?: boolean;
  /**
   * Reads the whole owner (pinned-wave3 §2.1): an agent may call it only with a grant of its scope
   * on `*`, so it is listed only to those.
   */
  wholeOwner?: boolean;
  /** What a model reads first: what it does, when to use it, what the money fields mean (the operation's text follows). */
  guide?: string;
};

export const MCP_TOOL_DECLARATIONS: readonly TMcpToolDeclaration[] = [
  { name: "get_agent_me", procedure: "agents.me", meta: getAgentMeMeta, input: ZGetAgentMeRequest, stability: "experimental" },
  { name: "get_me", procedure: "me.get", meta: getMeMeta, input: ZGetMeRequest, stability: "experimental" },
  { name: "get_fx_rates", procedure: "fx.rates", meta: getFxRatesMeta, input: ZGetFxRatesRequest, stability: "experimental" },
  {
    name: "get_business_saas_metrics",
    procedure: "readModels.businessSaasMetrics",
    meta: getBusinessSaasMetricsMeta,
    input: ZGetBusinessSaasMetricsRequest,
    stability: "experimental",
  },
  {
    name: "get_profit_and_loss",
    procedure: "reports.profitAndLoss",
    meta: getProfitAndLossMeta,
    input: ZGetProfitAndLossRequest,
    stability: "experimental",
  },
  {
    name: "get_cash_history",
    procedure: "reports.cashHistory",
    meta: getCashHistoryMeta,
    input: ZGetCashHistoryRequest,
    stability: "experimental",
  },
  {
    name: "get_business_financial_summary",
    procedure: "readModels.businessFinancialSummary",
    meta: getBusinessFinancialSummaryMeta,
    input: ZGetBusinessFinancialSummaryRequest,
    stability: "experimental",
    guide:
      "Use to answer how a business did over a period (default the last 30 days): revenue, costs, ad spend, net and cash, per project. Amounts are integers in minor units of the owner's base currency (cents: 12345 = 123.45) unless display_currency converts them; fx says at which rates.",
  },
  {
    name: "get_business_context",
    procedure: "readModels.businessContext",
    meta: getBusinessContextMeta,
    input: ZGetBusinessContextRequest,
    stability: "experimental",
    guide:
      "Use first when you work on one business: one call with its burn, runway, upcoming commitments, forecast, free capital and what you did there lately. Minor units as everywhere.",
  },
  {
    name: "get_business_project_health",
    procedure: "readModels.businessProjectHealth",
    meta: getBusinessProjectHealthMeta,
    input: ZGetBusinessProjectHealthRequest,
    stability: "experimental",
    guide:
      "Use to compare a business's projects: each project's revenue, costs, margin and a health score, to decide where money works.",
  },
  {
    name: "find_business_subscriptions",
    procedure: "subscriptions.findForBusiness",
    meta: findBusinessSubscriptionsMeta,
    input: ZFindBusinessSubscriptionsRequest,
    stability: "experimental",
    guide:
      "Use to list the recurring costs (software, services) a business pays: amount in minor units, billing interval and next charge day. Paged: pass page.next_cursor as cursor.",
  },
  {
    name: "get_personal_financial_summary",
    procedure: "readModels.personalFinancialSummary",
    meta: getPersonalFinancialSummaryMeta,
    input: ZGetPersonalFinancialSummaryRequest,
    stability: "experimental",
    guide: "The owner's personal finances (not a business) over a period: income, spending, net and cash, in minor units.",
  },
  {
    name: "get_business_forecast",
    procedure: "readModels.businessForecast",
    meta: getBusinessForecastMeta,
    input: ZGetBusinessForecastRequest,
    stability: "experimental",
    guide:
      "Use to see where a business's cash is heading: one row per day over the horizon (7, 30 or 90 days) with committed ins and outs and two balances (commitments only, and with the run rate). Minor units.",
  },
  {
    name: "get_personal_forecast",
    procedure: "readModels.personalForecast",
    meta: getPersonalForecastMeta,
    input: ZGetPersonalForecastRequest,
    stability: "experimental",
    guide: "The personal finances' cash forecast, day by day, as get_business_forecast for a business.",
  },
  {
    name: "get_free_capital",
    procedure: "readModels.freeCapital",
    meta: getFreeCapitalMeta,
    input: ZGetFreeCapitalRequest,
    stability: "experimental",
    guide:
      "Use before spending: how much cash a business, project or the personal finances can spend without missing a known commitment within horizon_days (cash minus reservations, commitments, planned costs and ad budgets). Pass exactly one of business_id, project_id or personal=true; none reads the whole owner (needs a grant on *). Minor units.",
  },
  {
    name: "get_business_ads",
    procedure: "readModels.businessAds",
    meta: getBusinessAdsMeta,
    input: ZGetBusinessAdsRequest,
    stability: "experimental",
    guide:
      "Use to see a business's ad accounts and campaigns over a period: spend (minor units), impressions, clicks, ctr, cpc and current daily budgets.",
  },
  {
    name: "find_events",
    procedure: "ledger.findEvents",
    meta: findEventsMeta,
    input: ZFindEventsRequest,
    stability: "experimental",
    guide:
      "Use to list money movements (expenses, revenues, refunds, ad spend, planned costs) of a business (business_id), project (project_id) or the personal finances (personal=true), newest first, filterable by type, day range and text. amount_minor is in the event's own currency; base_amount_minor in the owner's base currency. Paged by cursor.",
  },
  {
    name: "get_event",
    procedure: "ledger.getEvent",
    meta: getEventMeta,
    input: ZGetEventRequest,
    stability: "experimental",
    guide: "One money movement by its id (as find_events lists it).",
  },
  {
    name: "get_overview",
    procedure: "readModels.overview",
    meta: getOverviewMeta,
    input: ZGetOverviewRequest,
    stability: "experimental",
    wholeOwner: true,
    guide:
      "The whole owner at a glance: cash, burn, runway, upcoming costs and alerts across every business and the personal finances. Needs a finances:observe grant on *.",
  },
  {
    name: "get_forecast",
    procedure: "readModels.forecast",
    meta: getForecastMeta,
    input: ZGetForecastRequest,
    stability: "experimental",
    wholeOwner: true,
    guide: "The whole owner's cash forecast, day by day. Needs a forecast:observe grant on *.",
  },
  {
    name: "get_coverage",
    procedure: "readModels.coverage",
    meta: getCoverageMeta,
    input: ZGetCoverageRequest,
    stability: "experimental",
    wholeOwner: true,
    guide:
      "Which data sources (cash, revenue, ads, billing, expenses) are connected and fresh, per business: use it to say how far the figures can be trusted. Needs a finances:observe grant on *.",
  },
  {
    name: "get_daily_brief",
    procedure: "readModels.dailyBrief",
    meta: getDailyBriefMeta,
    input: ZGetDailyBriefRequest,
    stability: "experimental",
    wholeOwner: true,
    guide:
      "Today's (or date's) brief of the whole owner: a headline, yesterday's and the month's in and out, cash, runway, approvals waiting and what needs attention. Needs a finances:observe grant on *.",
  },
  {
    name: "get_ads",
    procedure: "readModels.ads",
    meta: getAdsMeta,
    input: ZGetAdsRequest,
    stability: "experimental",
    wholeOwner: true,
    guide: "Every ad account of the owner with spend and performance over a period. Needs an ads or finances:observe grant on *.",
  },
  {
    name: "run_simulation",
    procedure: "simulations.run",
    meta: runSimulationMeta,
    input: ZRunSimulationRequest,
    stability: "experimental",
    readOnly: true,
  },
  {
    name: "create_ad_budget_change",
    procedure: "adBudgetChanges.create",
    meta: createAdBudgetChangeMeta,
    input: ZCreateAdBudgetChangeRequest,
    stability: "experimental",
  },
  {
    name: "create_agent_decision",
    procedure: "decisions.create",
    meta: createAgentDecisionMeta,
    input: ZCreateAgentDecisionRequest,
    stability: "experimental",
  },
  {
    name: "get_decision_review",
    procedure: "decisions.review",
    meta: getDecisionReviewMeta,
    input: ZGetDecisionReviewRequest,
    stability: "experimental",
  },
  {
    name: "create_data_request",
    procedure: "approvals.createDataRequest",
    meta: createDataRequestMeta,
    input: ZCreateDataRequestRequest,
    stability: "experimental",
  },
  {
    name: "get_my_economics",
    procedure: "agentEconomics.getMine",
    meta: getMyEconomicsMeta,
    input: ZGetMyEconomicsRequest,
    stability: "experimental",
  },
  {
    name: "find_agents_economics",
    procedure: "agentEconomics.find",
    meta: findAgentsEconomicsMeta,
    input: ZFindAgentsEconomicsRequest,
    stability: "experimental",
  },
  {
    name: "get_agent_economics",
    procedure: "agentEconomics.get",
    meta: getAgentEconomicsMeta,
    input: ZGetAgentEconomicsRequest,
    stability: "experimental",
  },
];

type THttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

type TProcedureDef = { meta?: TProcedureMeta; input?: z.ZodType };

/** The app router's /v1 procedures by path (rest/route-table.ts operationDefinitions), handed in by the composition root. */
export type TProcedures = Record<string, TProcedureDef | undefined>;

/** A declaration resolved against its operation: everything the server lists and calls with. */
export type TMcpTool = {
  name: string;
  procedure: string;
  method: THttpMethod;
  /** `/v1/...` with `{param}` segments. */
  path: string;
  /** Names of the path's `{param}` segments, taken out of the arguments into the path. */
  pathParams: string[];
  /** The write needs an Idempotency-Key (the tool takes `idempotency_key`, else sends a fresh one). */
  keyed: boolean;
  /** The operation's access rule (who may call it: tools/list shows a tool only to them). */
  access: TAccessRule;
  /** For agents, only with a grant of the scope on `*` (the whole owner's reads). */
  wholeOwner: boolean;
  stability: TStability;
  deprecation?: TToolDeprecation;
  title: string;
  description: string;
  /** What tools/list shows: the operation's input schema, plus `idempotency_key` on keyed writes. */
  listedInput: z.ZodObject;
  annotations: {
    title: string;
    readOnlyHint: boolean;
    destructiveHint: boolean;
    idempotentHint: boolean;
    openWorldHint: boolean;
  };
  _meta: Record<string, unknown>;
};

/** The argument a keyed write's tool adds to its operation's input. */
export const IDEMPOTENCY_ARGUMENT = "idempotency_key";

const ZIdempotencyArgument = z
  .string()
  .min(1)
  .max(IDEMPOTENCY_KEY_MAX)
  .optional()
  .describe(
    "Sent as the operation's Idempotency-Key header: repeat a call with the same key (and the same arguments) to retry it " +
      "without writing twice; the answer is replayed. Default: a fresh key, so every call is a new write. (Experimental.)",
  );

/** An operation's input as an object schema (an operation without input takes no arguments). */
function objectInput(input: z.ZodType | undefined): z.ZodObject {
  if (input === undefined) return z.strictObject({});
  if (input instanceof z.ZodObject) return input;
  throw new Error("An MCP tool's operation input must be an object schema");
}

/**
 * Resolves a declaration. Its access rule is its procedure's: the builder's (ownerProcedure,
 * ownerOrAgentProcedure) merged into the procedure's meta, which the *.types.ts meta does not
 * carry; a procedure outside `procedures` (a test's fixture) is an agent operation.
 */
export function resolveTool(declaration: TMcpToolDeclaration, procedures: TProcedures = {}): TMcpTool {
  const { meta } = declaration;
  const openapi = meta.openapi;
  if (!openapi) throw new Error(`Tool ${declaration.name}: its procedure has no OpenAPI meta`);
  const access = meta.access ?? procedures[declaration.procedure]?.meta?.access ?? { kind: "owner_or_agent" };
  const method = openapi.method as THttpMethod;
  const keyed = method !== "GET" && (meta.idempotency ?? "required") === "required";
  const readOnly = method === "GET" || declaration.readOnly === true;
  const deprecation =
    declaration.deprecation ??
    (meta.deprecation
      ? { since: meta.deprecation.since, sunset: meta.deprecation.sunset, replacement: meta.deprecation.replacement }
      : undefined);
  const stability = declaration.stability;
  const title = openapi.summary ?? declaration.name;
  const text = [
    openapi.summary ? `${openapi.summary}.` : "",
    declaration.guide ?? "",
    openapi.description ?? "",
    `(REST: ${method} ${openapi.path})`,
  ]
    .filter(Boolean)
    .join(" ");
  const input = objectInput(declaration.input);
  return {
    name: declaration.name,
    procedure: declaration.procedure,
    method,
    path: openapi.path,
    pathParams: [...openapi.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!),
    keyed,
    access,
    wholeOwner: declaration.wholeOwner === true,
    stability,
    deprecation,
    title,
    description: toolDescription(text, stability, deprecation),
    // safeExtend keeps the operation's own checks and unknown-key rule; the id meta is left
    // behind, so the listed schema is an object at its top (MCP requires type: object there).
    listedInput: keyed ? input.safeExtend({ [IDEMPOTENCY_ARGUMENT]: ZIdempotencyArgument }) : input.safeExtend({}),
    annotations: {
      title,
      readOnlyHint: readOnly,
      destructiveHint: method === "DELETE",
      idempotentHint: readOnly || method === "PUT" || method === "DELETE",
      openWorldHint: false,
    },
    _meta: {
      [META_STABILITY]: stability,
      [META_OPERATION]: `${method} ${openapi.path}`,
      ...(deprecation ? { [META_DEPRECATION]: { sunset: deprecation.sunset, replacement: deprecation.replacement } } : {}),
    },
  };
}

/** Resolves declarations, refusing any that break Versioning 7. */
export function resolveTools(declarations: readonly TMcpToolDeclaration[], procedures: TProcedures = {}): TMcpTool[] {
  const problems = versioningProblems(
    declarations.map((declaration) => ({
      name: declaration.name,
      stability: declaration.stability,
      deprecation: declaration.deprecation,
      operationExperimental: declaration.meta.experimental ?? false,
    })),
  );
  const names = new Set<string>();
  for (const declaration of declarations) {
    if (names.has(declaration.name)) problems.push(`two tools are named ${declaration.name}`);
    names.add(declaration.name);
  }
  if (problems.length > 0) throw new Error(`MCP tool declarations:\n  ${problems.join("\n  ")}`);
  return declarations.map((declaration) => resolveTool(declaration, procedures));
}

/** A tool name from a procedure's path: `readModels.businessForecast` → `read_models_business_forecast`. */
export function ownerToolName(procedure: string): string {
  return procedure
    .split(".")
    .map((part) => part.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase())
    .join("_");
}

/**
 * The owner's operations as tools (pinned-wave3 §2.3: an owner token gets every owner operation):
 * one per procedure whose access is `owner`, named after its procedure, with its meta and input.
 * Plain routes (uploads, files, webhooks) are not tools: their bodies are not JSON arguments.
 */
export function ownerToolDeclarations(procedures: TProcedures): TMcpToolDeclaration[] {
  return Object.entries(procedures).flatMap(([procedure, definition]) => {
    const meta = definition?.meta;
    if (!meta?.openapi || meta.access?.kind !== "owner") return [];
    return [
      {
        name: ownerToolName(procedure),
        procedure,
        meta,
        input: definition!.input as z.ZodObject,
        stability: "experimental",
      },
    ];
  });
}

const resolved = new WeakMap<TProcedures, TMcpTool[]>();

/** Every served tool (agent and owner operations) of the app router's procedures, resolved once. */
export function mcpTools(procedures: TProcedures): TMcpTool[] {
  let tools = resolved.get(procedures);
  if (!tools) {
    tools = resolveTools([...MCP_TOOL_DECLARATIONS, ...ownerToolDeclarations(procedures)], procedures);
    resolved.set(procedures, tools);
  }
  return tools;
}

/** The tools of agent operations (the declared ones). */
export function agentTools(procedures: TProcedures): TMcpTool[] {
  const names = new Set(MCP_TOOL_DECLARATIONS.map((declaration) => declaration.name));
  return mcpTools(procedures).filter((tool) => names.has(tool.name));
}

/** Who calls, as tools/list needs to know it: the owner, or an agent and the scopes of its grants per resource. */
export type TMcpCaller = { type: "owner" } | { type: "agent"; grants: ReadonlyArray<{ scope: string; resource: string }> };

/**
 * Whether the caller may call the tool's operation (pinned-wave3 §2.3): the owner every tool;
 * an agent an agent operation whose scopes it holds (all of them, or one of `anyScope`), and a
 * whole-owner read only with that grant on `*`. A listed tool may still refuse one resource
 * (a business its grant does not cover); an unlisted one could only answer scope_denied.
 */
export function mayCall(caller: TMcpCaller, tool: TMcpTool): boolean {
  if (caller.type === "owner") return tool.access.kind === "owner" || tool.access.kind === "owner_or_agent";
  if (tool.access.kind !== "owner_or_agent") return false;
  const holds = (scope: TScope) =>
    caller.grants.some((grant) => grant.scope === scope && (!tool.wholeOwner || grant.resource === "*"));
  const all = typeof tool.access.scope === "string" ? [tool.access.scope] : (tool.access.scope ?? []);
  if (!all.every(holds)) return false;
  if (tool.access.anyScope && !tool.access.anyScope.some(holds)) return false;
  return true;
}

/** The tools this caller may call, in declaration order. */
export function toolsFor(procedures: TProcedures, caller: TMcpCaller): TMcpTool[] {
  return mcpTools(procedures).filter((tool) => mayCall(caller, tool));
}
