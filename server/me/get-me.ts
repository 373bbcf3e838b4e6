import { ownerProcedure } from "../trpc/init";
import { getMeMeta, ZGetMeRequest, ZGetMeResponse } from "./get-me.types";
import { getMe } from "./me-service";

export const getMeRoute = ownerProcedure
  .meta(getMeMeta)
  .input(ZGetMeRequest)
  .output(ZGetMeResponse)
  .query(async ({ ctx }) => ({ data: await getMe(ctx.db, ctx.actor) }));
