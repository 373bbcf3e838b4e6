import { z } from "zod";
import { ZIdParam } from "../shared/schemas";
import type { TProcedureMeta } from "../trpc/meta";
import { ZEvent } from "./event.schema";

export const getEventMeta: TProcedureMeta = {
  openapi: { method: "GET", path: "/v1/events/{id}", tags: ["Events"], summary: "Get a financial event" },
};
export const ZGetEventRequest = ZIdParam;
export const ZGetEventResponse = z.object({ data: ZEvent });
