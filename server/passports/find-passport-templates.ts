import { ownerProcedure } from "../trpc/init";
import {
  findPassportTemplatesMeta,
  ZFindPassportTemplatesRequest,
  ZFindPassportTemplatesResponse,
} from "./find-passport-templates.types";
import { listPassportTemplates } from "./passport-service";

export const findPassportTemplatesRoute = ownerProcedure
  .meta(findPassportTemplatesMeta)
  .input(ZFindPassportTemplatesRequest)
  .output(ZFindPassportTemplatesResponse)
  .query(() => ({ data: listPassportTemplates(), page: { next_cursor: null, has_more: false } }));
