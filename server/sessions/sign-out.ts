import { AppError } from "../errors/app-error";
import { publicProcedure } from "../trpc/init";
import { endCurrentSession } from "./session-service";
import { signOutMeta, ZSignOutRequest, ZSignOutResponse } from "./sign-out.types";

// Public in the contract's table (no bearer is demanded up front), but it only makes sense
// with the bearer of an owner session: the REST layer has authenticated it already.
export const signOutRoute = publicProcedure
  .meta(signOutMeta)
  .input(ZSignOutRequest)
  .output(ZSignOutResponse)
  .mutation(async ({ ctx }) => {
    if (ctx.actor.type !== "owner")
      throw new AppError("unauthenticated", "Sign-out needs the bearer of an owner session (ses_…).");
    await endCurrentSession(ctx.db, ctx.actor, ctx.requestId);
    return { data: { status: "signed_out" as const } };
  });
