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
import { IDEMPOTENCY_KEY_MAX } from "../rest/idempotency";
import { runSimulationMeta, ZRunSimulationRequest } from "../simulations/run-simulation.types";
import type { TProcedureMeta } from "../trpc/meta";
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
  stability: TStability;
  deprecation?: TToolDeprecation;
  title: string;
  description: string;
  /** The operation's input schema (what the REST layer validates). */
  input: z.ZodObject;
  /** What tools/list shows: the input schema, plus `idempotency_key` on keyed writes. */
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

export function resolveTool(declaration: TMcpToolDeclaration): TMcpTool {
  const { meta } = declaration;
  const openapi = meta.openapi;
  if (!openapi) throw new Error(`Tool ${declaration.name}: its procedure has no OpenAPI meta`);
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
  const text = [openapi.summary ? `${openapi.summary}.` : "", openapi.description ?? "", `(REST: ${method} ${openapi.path})`]
    .filter(Boolean)
    .join(" ");
  return {
    name: declaration.name,
    procedure: declaration.procedure,
    method,
    path: openapi.path,
    pathParams: [...openapi.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!),
    keyed,
    stability,
    deprecation,
    title,
    description: toolDescription(text, stability, deprecation),
    input: declaration.input,
    // safeExtend keeps the operation's own checks and unknown-key rule; the id meta is left
    // behind, so the listed schema is an object at its top (MCP requires type: object there).
    listedInput: keyed
      ? declaration.input.safeExtend({ [IDEMPOTENCY_ARGUMENT]: ZIdempotencyArgument })
      : declaration.input.safeExtend({}),
    annotations: {
      title,
      readOnlyHint: readOnly,
      destructiveHint: false,
      idempotentHint: readOnly,
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
export function resolveTools(declarations: readonly TMcpToolDeclaration[]): TMcpTool[] {
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
  return declarations.map(resolveTool);
}

let resolved: TMcpTool[] | undefined;

/** The served tools, resolved once. */
export function mcpTools(): TMcpTool[] {
  resolved ??= resolveTools(MCP_TOOL_DECLARATIONS);
  return resolved;
}
