import { z } from "zod";
import { ZIdParam } from "../shared/schemas";
import type { TProcedureMeta } from "../trpc/meta";
import { ZApproval } from "./approval.schema";

export const getApprovalMeta: TProcedureMeta = {
  openapi: { method: "GET", path: "/v1/approvals/{id}", tags: ["Approvals"], summary: "Get an approval" },
};
export const ZGetApprovalRequest = ZIdParam;
export const ZGetApprovalResponse = z.object({ data: ZApproval });
