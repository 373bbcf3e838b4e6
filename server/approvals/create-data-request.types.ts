import { z } from "zod";
import type { TProcedureMeta } from "../trpc/meta";
import { ZDataRequestInput, ZPendingApproval } from "./approval.schema";

export const createDataRequestMeta: TProcedureMeta = {
  openapi: {
    method: "POST",
    path: "/v1/data-requests",
    tags: ["Approvals"],
    summary: "Ask the owner to connect an integration or provide data",
    description: "Any agent may ask (an agent gives a reason of at least 3 characters). Answers 202 with the pending approval.",
  },
  successStatus: 202,
  experimental: true,
};
export const ZCreateDataRequestRequest = ZDataRequestInput;
export const ZCreateDataRequestResponse = z.object({ data: ZPendingApproval });
