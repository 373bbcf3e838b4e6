import { callerOf } from "../auth/caller";
import { ownerOrAgentProcedure } from "../trpc/init";
import { createDataRequestMeta, ZCreateDataRequestRequest, ZCreateDataRequestResponse } from "./create-data-request.types";
import { createDataRequest } from "./request-service";

export const createDataRequestRoute = ownerOrAgentProcedure()
  .meta(createDataRequestMeta)
  .input(ZCreateDataRequestRequest)
  .output(ZCreateDataRequestResponse)
  .mutation(async ({ ctx, input }) => {
    const approval = await createDataRequest(ctx.db, callerOf(ctx), input);
    return { data: { approval: { id: approval.id, status: "pending" as const } } };
  });
