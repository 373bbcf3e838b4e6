import { z } from "zod";
import type { TProcedureMeta } from "../trpc/meta";
import { ZCashSnapshotWritten, ZCreateCashSnapshotInput } from "./cash-snapshot.schema";

export const createCashSnapshotMeta: TProcedureMeta = {
  openapi: {
    method: "POST",
    path: "/v1/cash-snapshots",
    tags: ["Cash"],
    summary: "Record a cash balance",
    description:
      "The owner's manual balance of an account (data_class manual, source_type MANUAL, external_id " +
      "manual:<account_id>:<YYYY-MM-DD of as_of in UTC>). One snapshot per scope (business_id or personal), account and day " +
      "(two businesses may use one account label): 201 with outcome created for a new one; for a day already stored in that scope, 200 with outcome replaced when this as_of is later (the stored one is " +
      "overwritten), else 200 with outcome kept and the stored snapshot unchanged.",
  },
  successStatus: 201,
  otherSuccess: [
    {
      status: 200,
      description: "A day already stored in that scope: outcome replaced or kept.",
      // A repeat of a stored account-day is not a create.
      when: (output: { data: { outcome: string } }) => output.data.outcome !== "created",
    },
  ],
};
export const ZCreateCashSnapshotRequest = ZCreateCashSnapshotInput;
export const ZCreateCashSnapshotResponse = z.object({ data: ZCashSnapshotWritten });
