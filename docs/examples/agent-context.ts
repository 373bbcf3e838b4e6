// An agent's first calls: who it is and what its grants allow (with the limits used and left
// today and this month), a figure its grants cover, and what a refusal looks like: the contract's
// error body, thrown as a FinanceApiError by unwrap.
//
//   FINANCE_URL=http://localhost:3000 FINANCE_TOKEN=agt_… FINANCE_BUSINESS_ID=… npx tsx docs/examples/agent-context.ts
import { createFinanceClient, FinanceApiError, unwrap } from "../../client";
import { runAsScript, setting } from "./run-as-script.js";

export async function agentContext(config: { baseUrl: string; agentToken: string; businessId: string }) {
  const agent = createFinanceClient({ baseUrl: config.baseUrl, token: config.agentToken });

  // GET /v1/agents/me answers an agent its grants; an owner gets access: "all".
  const me = (await unwrap(agent.GET("/v1/agents/me"))).data;
  if (!("access" in me) || me.access !== "grants") throw new Error("this token is not an agent's");
  const grants = me.grants.map((grant) => ({
    scope: grant.scope,
    resource: grant.resource,
    level: grant.level,
    left_today_minor: grant.today?.left_minor ?? null, // null: no daily limit
    resets_at: grant.today?.resets_at ?? null,
  }));

  // Covered by finances:observe on this business. Aggregates are in the owner's base currency
  // unless display_currency says otherwise, and carry fx and coverage beside data.
  const metrics = await unwrap(
    agent.GET("/v1/businesses/{id}/saas-metrics", {
      params: { path: { id: config.businessId }, query: { display_currency: "EUR" } },
    }),
  );

  // The list of agents is the owner's alone: an agent gets 403 scope_denied (and it is audited).
  let refusal: { status: number; code: string; requestId: string | null } | null = null;
  try {
    await unwrap(agent.GET("/v1/agents"));
  } catch (error) {
    if (!(error instanceof FinanceApiError)) throw error;
    refusal = { status: error.status, code: error.code, requestId: error.requestId };
  }

  return {
    agentId: me.agent.id,
    contractVersion: me.contract_version,
    grants,
    mrrMinor: metrics.data.mrr_end_minor,
    currency: metrics.data.currency,
    coverage: metrics.coverage.overall,
    refusal,
  };
}

runAsScript(import.meta.url, () =>
  agentContext({
    baseUrl: setting("FINANCE_URL"),
    agentToken: setting("FINANCE_TOKEN"),
    businessId: setting("FINANCE_BUSINESS_ID"),
  }),
);
