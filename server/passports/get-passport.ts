import { ownerProcedure } from "../trpc/init";
import { getPassportMeta, ZGetPassportRequest, ZGetPassportResponse } from "./get-passport.types";
import { getPassport } from "./passport-service";

export const getPassportRoute = ownerProcedure
  .meta(getPassportMeta)
  .input(ZGetPassportRequest)
  .output(ZGetPassportResponse)
  .query(async ({ ctx, input }) => ({ data: await getPassport(ctx.db, ctx.actor.ownerId, input.id) }));
