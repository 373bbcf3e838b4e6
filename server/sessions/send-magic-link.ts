import { publicProcedure } from "../trpc/init";
import { sendMagicLink } from "./login-service";
import { sendMagicLinkMeta, ZSendMagicLinkRequest, ZSendMagicLinkResponse } from "./send-magic-link.types";

export const sendMagicLinkRoute = publicProcedure
  .meta(sendMagicLinkMeta)
  .input(ZSendMagicLinkRequest)
  .output(ZSendMagicLinkResponse)
  .mutation(async ({ ctx, input }) => {
    // "throttled" answers exactly like "sent": the answer never reveals anything.
    await sendMagicLink(ctx.db, input.email, ctx.requestId);
    return { data: { status: "sent" as const } };
  });
