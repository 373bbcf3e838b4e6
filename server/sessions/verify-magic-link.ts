import { publicProcedure } from "../trpc/init";
import { verifyMagicLink } from "./login-service";
import { verifyMagicLinkMeta, ZVerifyMagicLinkRequest, ZVerifyMagicLinkResponse } from "./verify-magic-link.types";

export const verifyMagicLinkRoute = publicProcedure
  .meta(verifyMagicLinkMeta)
  .input(ZVerifyMagicLinkRequest)
  .output(ZVerifyMagicLinkResponse)
  .mutation(async ({ ctx, input }) => ({
    data: await verifyMagicLink(ctx.db, {
      token: input.token,
      userAgent: ctx.userAgent || null,
      ip: ctx.ip,
      requestId: ctx.requestId,
    }),
  }));
