import { router } from "../trpc/init";
import { confirmImportRoute } from "./confirm-import";
import { getImportRoute } from "./get-import";
import { getImportPresetsRoute } from "./get-import-presets";
import { previewImportRoute } from "./preview-import";

// The literal /v1/imports/presets wins over /v1/imports/{id} in the REST layer's route table,
// whatever the order here. POST /v1/imports (multipart) is a plain route (routes.ts).
export const importsRouter = router({
  presets: getImportPresetsRoute,
  get: getImportRoute,
  confirm: confirmImportRoute,
  preview: previewImportRoute,
});
