import { z } from "zod";
import type { TProcedureMeta } from "../trpc/meta";
import { WAITLIST_SOURCES_MAX, ZWaitlistSources } from "./waitlist.schema";

export const findWaitlistSourcesMeta: TProcedureMeta = {
  openapi: {
    method: "GET",
    path: "/v1/waitlist/sources",
    tags: ["Waitlist"],
    summary: "How many joined the waitlist, by source",
    description:
      "Additive (issue 19). The waitlist's size and how many entries each source brought (source null: none given), " +
      `most first, then by source; at most ${WAITLIST_SOURCES_MAX} sources, the rest summed in other_count (truncated: ` +
      "true). For the waitlist readers only, as GET /v1/waitlist (another owner 404 not_found, an agent 403 " +
      "scope_denied). Counts name no one, so this read is not audited (waitlist.read and waitlist.export are).",
  },
};
export const ZFindWaitlistSourcesRequest = z.object({});
export const ZFindWaitlistSourcesResponse = z.object({ data: ZWaitlistSources });
