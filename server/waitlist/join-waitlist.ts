import { publicProcedure } from "../trpc/init";
import { joinWaitlistMeta, ZJoinWaitlistRequest, ZJoinWaitlistResponse } from "./join-waitlist.types";
import { joinWaitlist } from "./waitlist-service";

export const joinWaitlistRoute = publicProcedure
  .meta(joinWaitlistMeta)
  .input(ZJoinWaitlistRequest)
  .output(ZJoinWaitlistResponse)
  .mutation(async ({ ctx, input }) => {
    // New, duplicate and honeypot all answer the same.
    await joinWaitlist(ctx.db, input, ctx.userAgent);
    return { data: { status: "accepted" as const } };
  });
