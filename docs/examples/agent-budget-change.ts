// An agent's write, end to end: propose an ad budget change with a reason and an Idempotency-Key,
// retried safely after 429 and 5xx; the same key sent again is replayed, not written twice. Over
// the grant's daily limit the write is held: 202 with a pending approval, which the owner decides;
// the agent sees the decision in its economics (an agent cannot read approvals themselves).
//
//   FINANCE_URL=http://localhost:3000 FINANCE_TOKEN=agt_… FINANCE_INTEGRATION_ID=… \
//     npx tsx docs/examples/agent-budget-change.ts
import {
  createFinanceClient,
  heldApproval,
  idempotent,
  newIdempotencyKey,
  unwrap,
  withRetries,
  type components,
  type TFinanceClient,
  type TPendingApproval,
} from "../../client";
import { runAsScript, setting } from "./run-as-script.js";

type TBudgetChange = components["schemas"]["AdBudgetChange"];
export type TProposal =
  | { outcome: "executed"; change: TBudgetChange; replayed: boolean }
  | { outcome: "held"; approval: TPendingApproval; replayed: boolean };

/**
 * POST /v1/ad-budget-changes. Keep `key` to send the same write again (after a timeout, a crash):
 * a write that did happen is answered from its record, with Idempotent-Replayed: true.
 */
export async function proposeBudgetChange(
  agent: TFinanceClient,
  body: { integration_id: string; campaign_id: string; previous_daily_budget_minor?: number; new_daily_budget_minor: number },
  key: string = newIdempotencyKey(),
): Promise<TProposal> {
  const answer = await withRetries(() =>
    agent.POST("/v1/ad-budget-changes", {
      params: { header: idempotent(key) },
      body: { ...body, currency: "EUR", reason: "ROAS has been twice the target for 14 days" },
    }),
  );
  const replayed = answer.response.headers.get("Idempotent-Replayed") === "true";
  const approval = heldApproval(answer); // 202: a success, never retried
  if (approval) return { outcome: "held", approval, replayed };
  const { data } = await unwrap(answer); // anything else but 201 throws a FinanceApiError
  if ("approval" in data) throw new Error("a pending approval answered with 201");
  return { outcome: "executed", change: data, replayed };
}

/** The agent's writes by approval status this month (GET /v1/agents/me/economics). */
export async function myWrites(agent: TFinanceClient) {
  return (await unwrap(agent.GET("/v1/agents/me/economics"))).data.writes;
}

/** Polls the agent's economics until fewer writes are pending than `pendingBefore` (the owner decided). */
export async function waitForOwner(
  agent: TFinanceClient,
  pendingBefore: number,
  options: { intervalMs?: number; timeoutMs?: number } = {},
) {
  const deadline = Date.now() + (options.timeoutMs ?? 10 * 60_000);
  for (;;) {
    const writes = await myWrites(agent);
    if (writes.pending < pendingBefore) return writes;
    if (Date.now() > deadline) throw new Error(`still ${writes.pending} pending writes`);
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 30_000));
  }
}

export async function agentBudgetChange(config: {
  baseUrl: string;
  agentToken: string;
  integrationId: string;
  /** Called once the write is held, e.g. to tell the owner; the example then polls. */
  onHeld?: (approval: TPendingApproval) => Promise<void>;
  pollIntervalMs?: number;
}) {
  const agent = createFinanceClient({ baseUrl: config.baseUrl, token: config.agentToken });

  // 80.00 a day on a campaign whose budget the service does not know yet: the limits count the
  // increase over the budget the service knows (the campaign's last applied change, or what the
  // platform last reported), so here the whole 80.00, within the grant's 100.00 daily limit: it
  // runs (201). previous_daily_budget_minor, when sent, is kept as the agent's claim and never counted.
  const key = newIdempotencyKey();
  const small = { integration_id: config.integrationId, campaign_id: "spring-sale", previous_daily_budget_minor: 50_00 };
  const first = await proposeBudgetChange(agent, { ...small, new_daily_budget_minor: 80_00 }, key);
  // The same key and body again (as after a lost answer): the same change, replayed, not counted twice.
  const again = await proposeBudgetChange(agent, { ...small, new_daily_budget_minor: 80_00 }, key);

  // 500.00 a day: over the limit with over_limit "approval", so it is held (202).
  const big = await proposeBudgetChange(agent, {
    integration_id: config.integrationId,
    campaign_id: "brand",
    previous_daily_budget_minor: 50_00,
    new_daily_budget_minor: 500_00,
  });
  let decided = null;
  if (big.outcome === "held") {
    const pending = (await myWrites(agent)).pending;
    await config.onHeld?.(big.approval);
    decided = await waitForOwner(agent, pending, { intervalMs: config.pollIntervalMs });
  }
  return { first, again, big, decided };
}

runAsScript(import.meta.url, () =>
  agentBudgetChange({
    baseUrl: setting("FINANCE_URL"),
    agentToken: setting("FINANCE_TOKEN"),
    integrationId: setting("FINANCE_INTEGRATION_ID"),
    onHeld: async (approval) => console.error(`held: approval ${approval.id}; waiting for the owner to decide it`),
  }),
);
