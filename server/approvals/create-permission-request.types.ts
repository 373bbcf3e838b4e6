import { z } from "zod";
import type { TProcedureMeta } from "../trpc/meta";
import { ZPendingApproval, ZPermissionRequestInput } from "./approval.schema";

export const createPermissionRequestMeta: TProcedureMeta = {
  openapi: {
    method: "POST",
    path: "/v1/permission-requests",
    tags: ["Approvals"],
    summary: "Request a grant for an agent",
    description: "Creates an approval with action grant_scope (202); approving it adds the grant to the agent.",
  },
  successStatus: 202,
};
export const ZCreatePermissionRequestRequest = ZPermissionRequestInput;
export const ZCreatePermissionRequestResponse = z.object({ data: ZPendingApproval });
