import { z } from "zod";
import type { TProcedureMeta } from "../trpc/meta";
import { ZMe } from "./me.schema";

export const getMeMeta: TProcedureMeta = {
  openapi: { method: "GET", path: "/v1/me", tags: ["Me"], summary: "The caller's profile" },
};
export const ZGetMeRequest = z.object({});
export const ZGetMeResponse = z.object({ data: ZMe });
