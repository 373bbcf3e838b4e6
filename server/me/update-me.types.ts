import { z } from "zod";
import type { TProcedureMeta } from "../trpc/meta";
import { ZMe, ZUpdateMeInput } from "./me.schema";

export const updateMeMeta: TProcedureMeta = {
  openapi: { method: "PATCH", path: "/v1/me", tags: ["Me"], summary: "Update the owner's profile" },
};
export const ZUpdateMeRequest = ZUpdateMeInput;
export const ZUpdateMeResponse = z.object({ data: ZMe });
