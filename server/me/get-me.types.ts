import { z } from "zod";
import type { TProcedureMeta } from "../trpc/meta";
import { ZAgentMe, ZMe } from "./me.schema";

export const getMeMeta: TProcedureMeta = {
  openapi: {
    method: "GET",
    path: "/v1/me",
    tags: ["Me"],
    summary: "The caller's profile",
    description:
      "The owner sees every field of Me; an agent (any agent, no scope needed) sees only id, base_currency, timezone, plan and actor.",
  },
};
export const ZGetMeRequest = z.object({});
export const ZGetMeResponse = z.object({ data: z.union([ZMe, ZAgentMe]) });
