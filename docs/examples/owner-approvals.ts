// The owner decides held writes: the pending write approvals (GET /v1/approvals?kind=write&status=pending),
// each approved with a note. Approving runs the held write as the agent; its answer is kept on the
// approval (result). Reject works the same way (POST /v1/approvals/{id}/reject).
//
//   FINANCE_URL=http://localhost:3000 FINANCE_OWNER_TOKEN=ses_… npx tsx docs/examples/owner-approvals.ts
import { createFinanceClient, idempotent, unwrap } from "../../client";
import { runAsScript, setting } from "./run-as-script.js";

export async function approvePendingWrites(config: { baseUrl: string; ownerToken: string; note?: string }) {
  const owner = createFinanceClient({ baseUrl: config.baseUrl, token: config.ownerToken });
  const pending = await unwrap(owner.GET("/v1/approvals", { params: { query: { kind: "write", status: "pending" } } }));
  const decided = [];
  for (const approval of pending.data) {
    const answer = await unwrap(
      owner.POST("/v1/approvals/{id}/approve", {
        params: { header: idempotent(), path: { id: approval.id } },
        body: { decision_note: config.note ?? "Approved" },
      }),
    );
    decided.push({ id: approval.id, action: approval.action, agentId: approval.agent_id, status: answer.data.status });
  }
  return decided;
}

runAsScript(import.meta.url, () =>
  approvePendingWrites({ baseUrl: setting("FINANCE_URL"), ownerToken: setting("FINANCE_OWNER_TOKEN") }),
);
