import { z } from "zod";
import { ZPageQuery } from "../shared/pagination";
import { ZDate, ZTimestamp, ZUuid } from "../shared/schemas";

/** Who an audit entry names: the caller's actor types and system (jobs); the CHECK of audit_entries.actor_type holds these. */
export const AUDIT_ACTOR_TYPES = ["owner", "agent", "integration", "system", "public"] as const;

export const ZAuditEntry = z
  .object({
    id: ZUuid,
    actor: z.object({ type: z.enum(AUDIT_ACTOR_TYPES), id: z.string().nullable() }),
    action: z.string().describe("What happened, e.g. business.created, access.denied, approval.approved, signal.<code>."),
    target: z.object({ type: z.string(), id: z.string() }).nullable(),
    request_id: z.string().nullable(),
    details: z.unknown().nullable(),
    created_at: ZTimestamp,
  })
  .meta({ id: "AuditEntry" });
export type TAuditEntry = z.infer<typeof ZAuditEntry>;

const ZDateOrTimestamp = z.union([ZDate, ZTimestamp]);

export const ZFindAuditQuery = ZPageQuery.extend({
  actor_type: z.enum(["owner", "agent", "integration", "system"]).optional(),
  actor_id: z.string().max(64).optional(),
  action: z.string().max(128).optional().describe("Exact action, or a prefix ending in * (e.g. approval.*)."),
  target_type: z
    .string()
    .max(64)
    .optional()
    .describe("Additive (issue 14): entries about this kind of record, e.g. budget_reservation, business, agent."),
  target_id: z.string().max(64).optional().describe("Additive (issue 14): entries about this record (its id)."),
  from: ZDateOrTimestamp.optional().describe("From this day or instant (inclusive)."),
  to: ZDateOrTimestamp.optional().describe("Up to this day (inclusive) or instant (exclusive)."),
});
