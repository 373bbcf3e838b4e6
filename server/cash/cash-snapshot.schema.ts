import { z } from "zod";
import { ZScopeOut } from "../shared/scope";
import { ZAmountMinor, ZCurrency, ZQueryBoolean, ZTimestamp, ZUuid, zStoredMinor } from "../shared/schemas";
import { ZBaseAmountFields } from "../fx/base-amounts";

export const DATA_CLASSES = ["real", "manual"] as const;

export const ZCashSnapshot = z
  .object({
    id: ZUuid,
    ...ZScopeOut.shape,
    amount_minor: zStoredMinor("The balance; negative for an overdraft."),
    currency: ZCurrency,
    ...ZBaseAmountFields.shape,
    as_of: ZTimestamp.describe("When the balance was observed."),
    account_id: z.string(),
    iban_last4: z.string().nullable(),
    external_id: z
      .string()
      .describe("<provider>:<account_id>:<YYYY-MM-DD of as_of in UTC>; manual entries use the provider manual."),
    data_class: z.enum(DATA_CLASSES).describe("real: from an integration; manual: entered by the owner."),
    source_type: z.string(),
    integration_id: ZUuid.nullable(),
    provenance: z.record(z.string(), z.unknown()).nullable(),
    created_at: ZTimestamp,
    updated_at: ZTimestamp,
  })
  .meta({ id: "CashSnapshot" });
export type TCashSnapshot = z.infer<typeof ZCashSnapshot>;

export const CASH_WRITE_OUTCOMES = ["created", "replaced", "kept"] as const;
export type TCashWriteOutcome = (typeof CASH_WRITE_OUTCOMES)[number];

export const ZCashSnapshotWritten = ZCashSnapshot.extend({
  outcome: z
    .enum(CASH_WRITE_OUTCOMES)
    .describe(
      "created (201): a new snapshot for this scope, account and day; replaced (200): the day's snapshot was overwritten because " +
        "this as_of is later; kept (200): the stored snapshot is as recent or more, so it was kept and is what this answer shows.",
    ),
}).meta({ id: "CashSnapshotWritten" });
export type TCashSnapshotWritten = z.infer<typeof ZCashSnapshotWritten>;

export const ZCreateCashSnapshotInput = z
  .object({
    business_id: ZUuid.optional(),
    personal: z.literal(true).optional().describe("true for the owner's personal finances."),
    amount_minor: ZAmountMinor.describe("The balance in minor units; may be negative."),
    currency: ZCurrency,
    as_of: ZTimestamp.describe("When the balance was observed; not in the future."),
    payload: z.object({
      account_id: z.string().trim().min(1, { message: "must not be empty" }).max(128),
      iban_last4: z
        .string()
        .regex(/^[0-9A-Za-z]{4}$/, { message: "must be the last 4 characters of the IBAN" })
        .transform((value) => value.toUpperCase())
        .optional(),
    }),
  })
  .superRefine((value, ctx) => {
    if ((value.business_id !== undefined) === (value.personal === true)) {
      ctx.addIssue({ code: "custom", path: ["business_id"], message: "give exactly one of business_id or personal: true" });
    }
  })
  .meta({ id: "CreateCashSnapshotInput" });
export type TCreateCashSnapshotInput = z.infer<typeof ZCreateCashSnapshotInput>;

export const ZCashSnapshotFilters = z.object({
  business_id: ZUuid.optional().describe("Snapshots of this business."),
  personal: ZQueryBoolean.optional().describe("true: the personal snapshots only; false: the businesses' only."),
  account_id: z.string().trim().min(1).max(128).optional().describe("Snapshots of this account label (exact)."),
});
export type TCashSnapshotFilters = z.infer<typeof ZCashSnapshotFilters>;
