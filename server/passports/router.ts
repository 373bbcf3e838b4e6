import { router } from "../trpc/init";
import { applyPassportTemplateRoute } from "./apply-passport-template";
import { findPassportTemplatesRoute } from "./find-passport-templates";
import { getPassportRoute } from "./get-passport";
import { updatePassportRoute } from "./update-passport";

export const passportsRouter = router({
  get: getPassportRoute,
  update: updatePassportRoute,
  templates: findPassportTemplatesRoute,
  applyTemplate: applyPassportTemplateRoute,
});
