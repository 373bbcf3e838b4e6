import { z } from "zod";
import type { TProcedureMeta } from "../trpc/meta";
import { ZAgentDecision, ZCreateAgentDecisionInput } from "./decision.schema";

export const createAgentDecisionMeta: TProcedureMeta = {
  openapi: {
    method: "POST",
    path: "/v1/agent-decisions",
    tags: ["Agent decisions"],
    summary: "Record an agent's decision",
    description:
      "Records what an agent decided, why (rationale) and the effect it expects (expected: metric, delta_minor, currency, " +
      "window_days), with an agent_action event (actual, source MANUAL, payload { decision_id, title, expected }) and an " +
      "agent_decision.created audit entry in one transaction. Exactly one of business_id, project_id, personal: true. " +
      "The owner must name agent_id, one of their agents (another's or unknown: 404). An agent records its own: agent_id " +
      "omitted or its own id (else 400), reason required (400 missing_reason), and any grant of any scope covering the " +
      "scope (a project is covered by its business's grants, everything by *), else 403 scope_denied with " +
      'details { required_scope: "any", resource }, audited. A decision commits no money and counts against no limit: ' +
      "201 at once whatever the grant's level. amount_minor ≥ 0 (default 0), currency required when it is above 0 (default " +
      "the base currency); occurred_on not after today (default today); approval_id an approval of the owner's (else 404). " +
      "Answers the body's fields with agent_id filled in, plus id, event_id and created_at. Its outcome: " +
      "GET /v1/decisions/{id}/review.",
  },
  successStatus: 201,
  planLimit: "events_per_month",
};
export const ZCreateAgentDecisionRequest = ZCreateAgentDecisionInput;
export const ZCreateAgentDecisionResponse = z.object({ data: ZAgentDecision });
