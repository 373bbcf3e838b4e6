import { ownerProcedure } from "../trpc/init";
import { listPresets } from "./import-read";
import { getImportPresetsMeta, ZGetImportPresetsRequest, ZGetImportPresetsResponse } from "./get-import-presets.types";

export const getImportPresetsRoute = ownerProcedure
  .meta(getImportPresetsMeta)
  .input(ZGetImportPresetsRequest)
  .output(ZGetImportPresetsResponse)
  .query(() => ({ data: listPresets() }));
