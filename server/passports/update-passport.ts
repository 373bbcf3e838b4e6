import { callerOf } from "../auth/caller";
import { ownerProcedure } from "../trpc/init";
import { setPassport } from "./passport-service";
import { updatePassportMeta, ZUpdatePassportRequest, ZUpdatePassportResponse } from "./update-passport.types";

export const updatePassportRoute = ownerProcedure
  .meta(updatePassportMeta)
  .input(ZUpdatePassportRequest)
  .output(ZUpdatePassportResponse)
  .mutation(async ({ ctx, input: { id, ...fields } }) => ({ data: await setPassport(ctx.db, callerOf(ctx), id, fields) }));
