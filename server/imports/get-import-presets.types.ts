import { z } from "zod";
import type { TProcedureMeta } from "../trpc/meta";
import { ZImportPreset } from "./import.schema";

export const getImportPresetsMeta: TProcedureMeta = {
  openapi: {
    method: "GET",
    path: "/v1/imports/presets",
    tags: ["Imports"],
    summary: "Statement presets",
    description:
      "The bank presets POST /v1/imports accepts (preset=<id>), generic included: the delimiter (null: detected), the " +
      "date and number formats, the sign convention and the header names tried per field. A mapping overrides any of them.",
  },
};
export const ZGetImportPresetsRequest = z.object({});
export const ZGetImportPresetsResponse = z.object({ data: z.array(ZImportPreset) });
