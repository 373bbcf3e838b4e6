import { router } from "../trpc/init";
import { confirmImportRoute } from "./confirm-import";
import { getImportRoute } from "./get-import";
import { getImportPresetsRoute } from "./get-import-presets";

// Order matters to the OpenAPI adapter, which takes the first path that matches: the literal
// /v1/imports/presets is declared before /v1/imports/{id}. POST /v1/imports (multipart) is a
// plain route (routes.ts).
export const importsRouter = router({
  presets: getImportPresetsRoute,
  get: getImportRoute,
  confirm: confirmImportRoute,
});
