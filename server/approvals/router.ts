import { router } from "../trpc/init";
import { approveApprovalRoute } from "./approve-approval";
import { createDataRequestRoute } from "./create-data-request";
import { createPermissionRequestRoute } from "./create-permission-request";
import { dismissApprovalRoute } from "./dismiss-approval";
import { findApprovalsRoute } from "./find-approvals";
import { getApprovalRoute } from "./get-approval";
import { rejectApprovalRoute } from "./reject-approval";

export const approvalsRouter = router({
  find: findApprovalsRoute,
  get: getApprovalRoute,
  approve: approveApprovalRoute,
  reject: rejectApprovalRoute,
  dismiss: dismissApprovalRoute,
  createPermissionRequest: createPermissionRequestRoute,
  createDataRequest: createDataRequestRoute,
});
