// The agent builders' guide (docs/agents.md) cannot rot: each of its examples (docs/examples/)
// runs here as written, with the global fetch over real HTTP against the app served in process,
// the static owner's token and the agent token the owner example creates.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agentBudgetChange } from "../docs/examples/agent-budget-change";
import { agentContext } from "../docs/examples/agent-context";
import { approvePendingWrites } from "../docs/examples/owner-approvals";
import { ownerSetup } from "../docs/examples/owner-setup";
import { createTestApi, OWNER_TOKEN, type TTestApi } from "./helpers/api";
import { serveApp, type TServedApp } from "./helpers/http-app";

let api: TTestApi;
let app: TServedApp;
let setup: Awaited<ReturnType<typeof ownerSetup>>;

beforeAll(async () => {
  api = await createTestApi();
  app = await serveApp(api);
  setup = await ownerSetup({ baseUrl: app.url, ownerToken: OWNER_TOKEN, socialAdsSigningSecret: "agent-guide-social-secret" });
});
afterAll(async () => {
  await app?.close();
  await api?.close();
});

const EXAMPLES = path.resolve(import.meta.dirname, "../docs/examples");

describe("docs/examples", () => {
  it("every example is linked from docs/agents.md and run here", () => {
    const guide = fs.readFileSync(path.resolve(EXAMPLES, "../agents.md"), "utf8");
    const self = fs.readFileSync(import.meta.filename, "utf8");
    const examples = fs.readdirSync(EXAMPLES).filter((file) => file.endsWith(".ts") && file !== "run-as-script.ts");
    expect(examples.length).toBeGreaterThan(0);
    for (const file of examples) {
      expect(guide, file).toContain(`(examples/${file})`);
      expect(self, file).toContain(`from "../docs/examples/${file.replace(/\.ts$/, "")}"`);
    }
  });

  it("owner-setup: a business, a connected ad account and an agent with its agt_ token", async () => {
    expect(setup.agentToken).toMatch(/^agt_/);
    const agent = await api.db.agent.findUniqueOrThrow({ where: { id: setup.agentId }, include: { grants: true } });
    expect(agent.grants.map((grant) => grant.scope).sort()).toEqual(["ads", "finances:observe"]);
  });

  it("agent-context: the agent's grants and limits, a covered figure, and an owner-only read refused", async () => {
    const context = await agentContext({ baseUrl: app.url, agentToken: setup.agentToken, businessId: setup.businessId });
    expect(context.agentId).toBe(setup.agentId);
    expect(context.grants).toContainEqual(
      expect.objectContaining({ scope: "ads", level: "execute", left_today_minor: 100_00, resets_at: expect.any(String) }),
    );
    expect(context).toMatchObject({ currency: "EUR", mrrMinor: 0, refusal: { status: 403, code: "scope_denied" } });
    expect(context.refusal?.requestId).toMatch(/^req_/);
  });

  it("agent-budget-change and owner-approvals: executed, replayed by its key, held over the limit, approved, seen by the agent", async () => {
    const approved: unknown[] = [];
    const run = await agentBudgetChange({
      baseUrl: app.url,
      agentToken: setup.agentToken,
      integrationId: setup.integrationId,
      pollIntervalMs: 50,
      // The owner decides while the agent polls.
      onHeld: async () => {
        approved.push(...(await approvePendingWrites({ baseUrl: app.url, ownerToken: OWNER_TOKEN, note: "Go" })));
      },
    });
    expect(run.first).toMatchObject({ outcome: "executed", replayed: false, change: { campaign_id: "spring-sale" } });
    expect(run.again).toMatchObject({ outcome: "executed", replayed: true });
    if (run.first.outcome === "executed" && run.again.outcome === "executed")
      expect(run.again.change.id).toBe(run.first.change.id);
    expect(run.big).toMatchObject({ outcome: "held", approval: { status: "pending" } });
    expect(approved).toEqual([
      expect.objectContaining({ action: "ad_budget_change.create", agentId: setup.agentId, status: "approved" }),
    ]);
    expect(run.decided).toMatchObject({ pending: 0, approved: 1 });
    expect(await api.db.adBudgetChange.count({ where: { agentId: setup.agentId } })).toBe(2);
  });
});
