import { callerOf } from "../auth/caller";
import { ownerProcedure } from "../trpc/init";
import {
  replaceSigningSecretMeta,
  ZReplaceSigningSecretRequest,
  ZReplaceSigningSecretResponse,
} from "./replace-signing-secret.types";
import { replaceSigningSecret } from "./signing-secret";

export const replaceSigningSecretRoute = ownerProcedure
  .meta(replaceSigningSecretMeta)
  .input(ZReplaceSigningSecretRequest)
  .output(ZReplaceSigningSecretResponse)
  .mutation(async ({ ctx, input }) => ({
    data: await replaceSigningSecret(ctx.db, callerOf(ctx), input.id, input.signing_secret),
  }));
