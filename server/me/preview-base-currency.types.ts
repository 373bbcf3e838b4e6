import { z } from "zod";
import type { TProcedureMeta } from "../trpc/meta";
import { ZBaseCurrencyPreview, ZBaseCurrencyPreviewQuery } from "./base-currency-preview.schema";

export const previewBaseCurrencyMeta: TProcedureMeta = {
  openapi: {
    method: "GET",
    path: "/v1/me/base-currency-preview",
    tags: ["Me"],
    summary: "What changing the base currency would do",
    description:
      "Additive (issue 14). A read-only dry run of PATCH /v1/me { base_currency }: how many events would be restated and " +
      "how (actual ones at the rate of their own day, planned ones at today's rate), which records are only converted on " +
      "read, today's rates into the new base, and the refusal PATCH would answer now (refusal, null when it would succeed). " +
      "Nothing is written. A code that is not ISO 4217 answers 422 currency_unsupported, as PATCH does.",
  },
};
export const ZPreviewBaseCurrencyRequest = ZBaseCurrencyPreviewQuery;
export const ZPreviewBaseCurrencyResponse = z.object({ data: ZBaseCurrencyPreview });
