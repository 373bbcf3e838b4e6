import { ownerOrAgentProcedure } from "../trpc/init";
import { getMeMeta, ZGetMeRequest, ZGetMeResponse } from "./get-me.types";
import { getMe } from "./me-service";

// The contract lists GET /v1/me as owner-only, yet defines what an agent sees of it (Me).
export const getMeRoute = ownerOrAgentProcedure()
  .meta(getMeMeta)
  .input(ZGetMeRequest)
  .output(ZGetMeResponse)
  .query(async ({ ctx }) => ({ data: await getMe(ctx.db, ctx.actor, ctx.clock.now()) }));
