import { callerOf } from "../auth/caller";
import { ownerProcedure } from "../trpc/init";
import {
  applyPassportTemplateMeta,
  ZApplyPassportTemplateRequest,
  ZApplyPassportTemplateResponse,
} from "./apply-passport-template.types";
import { applyPassportTemplate } from "./passport-service";

export const applyPassportTemplateRoute = ownerProcedure
  .meta(applyPassportTemplateMeta)
  .input(ZApplyPassportTemplateRequest)
  .output(ZApplyPassportTemplateResponse)
  .mutation(async ({ ctx, input: { id, ...body } }) => ({ data: await applyPassportTemplate(ctx.db, callerOf(ctx), id, body) }));
