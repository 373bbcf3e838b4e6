import { z } from "zod";
import { ZIdParam } from "../shared/schemas";
import type { TProcedureMeta } from "../trpc/meta";
import { PASSPORT_RULES } from "./get-passport.types";
import { ZPassport, ZPassportFields } from "./passport.schema";

export const updatePassportMeta: TProcedureMeta = {
  openapi: {
    method: "PUT",
    path: "/v1/agents/{id}/passport",
    tags: ["Agents"],
    summary: "Set an agent's passport",
    description:
      `${PASSPORT_RULES} Replaces the whole passport: every field omitted takes its default (empty texts and lists, ` +
      "no constraints). Answers 200 with version + 1 and template_id null; audited (agent.passport_updated, " +
      "details { template_id: null, version }). Every invalid field answers 400 at once and nothing is written; " +
      "constraints.max_daily_spend_minor needs constraints.currency; constraints.businesses must be the owner's " +
      "(404 not_found, details.path naming the entry). A revoked agent answers 409 state_conflict. Owner only.",
  },
  experimental: true,
};
export const ZUpdatePassportRequest = ZIdParam.extend(ZPassportFields.shape);
export const ZUpdatePassportResponse = z.object({ data: ZPassport });
