import { ownerProcedure } from "../trpc/init";
import { previewBaseCurrencyChange } from "./me-service";
import {
  previewBaseCurrencyMeta,
  ZPreviewBaseCurrencyRequest,
  ZPreviewBaseCurrencyResponse,
} from "./preview-base-currency.types";

export const previewBaseCurrencyRoute = ownerProcedure
  .meta(previewBaseCurrencyMeta)
  .input(ZPreviewBaseCurrencyRequest)
  .output(ZPreviewBaseCurrencyResponse)
  .query(async ({ ctx, input }) => ({
    data: await previewBaseCurrencyChange(ctx.db, ctx.actor.ownerId, input.base_currency),
  }));
