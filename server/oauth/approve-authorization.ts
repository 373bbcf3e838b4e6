import { callerOf } from "../auth/caller";
import { ownerProcedure } from "../trpc/init";
import {
  approveAuthorizationMeta,
  ZApproveAuthorizationRequest,
  ZApproveAuthorizationResponse,
} from "./approve-authorization.types";
import { approveAuthorization } from "./oauth-service";

export const approveAuthorizationRoute = ownerProcedure
  .meta(approveAuthorizationMeta)
  .input(ZApproveAuthorizationRequest)
  .output(ZApproveAuthorizationResponse)
  .mutation(async ({ ctx, input }) => ({ data: await approveAuthorization(ctx.db, callerOf(ctx), input) }));
