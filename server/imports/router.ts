import { router } from "../trpc/init";
import { confirmImportRoute } from "./confirm-import";
import { findImportAccountsRoute } from "./find-import-accounts";
import { findImportsRoute } from "./find-imports";
import { getImportRoute } from "./get-import";
import { getImportPresetsRoute } from "./get-import-presets";
import { previewImportRoute } from "./preview-import";
import { revertImportRoute } from "./revert-import";

// The literals /v1/imports/presets and /v1/imports/accounts win over /v1/imports/{id} in the REST layer's route table,
// whatever the order here. POST /v1/imports (multipart) is a plain route (routes.ts); GET /v1/imports (the list) is
// a procedure on the same path.
export const importsRouter = router({
  find: findImportsRoute,
  presets: getImportPresetsRoute,
  accounts: findImportAccountsRoute,
  get: getImportRoute,
  confirm: confirmImportRoute,
  preview: previewImportRoute,
  revert: revertImportRoute,
});
