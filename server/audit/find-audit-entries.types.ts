import { ZListOf } from "../shared/pagination";
import type { TProcedureMeta } from "../trpc/meta";
import { ZAuditEntry, ZFindAuditQuery } from "./audit.schema";

export const findAuditEntriesMeta: TProcedureMeta = {
  openapi: {
    method: "GET",
    path: "/v1/audit",
    tags: ["Audit"],
    summary: "The audit log",
    description:
      "Every write, denial and decision, newest first. Filter by actor, action (exact or prefix*), target (the record an entry is about) and time.",
  },
};
export const ZFindAuditEntriesRequest = ZFindAuditQuery;
export const ZFindAuditEntriesResponse = ZListOf(ZAuditEntry);
