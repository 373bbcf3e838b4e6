import { callerOf } from "../auth/caller";
import { ownerProcedure } from "../trpc/init";
import {
  createPermissionRequestMeta,
  ZCreatePermissionRequestRequest,
  ZCreatePermissionRequestResponse,
} from "./create-permission-request.types";
import { createPermissionRequest } from "./request-service";

export const createPermissionRequestRoute = ownerProcedure
  .meta(createPermissionRequestMeta)
  .input(ZCreatePermissionRequestRequest)
  .output(ZCreatePermissionRequestResponse)
  .mutation(async ({ ctx, input }) => {
    const approval = await createPermissionRequest(ctx.db, callerOf(ctx), input);
    return { data: { approval: { id: approval.id, status: "pending" as const } } };
  });
