// The mapped fields of a statement and which of them a sign convention needs: one home for the
// server's mapping (presets.ts) and the panel's mapping step, which reports a missing required
// column before asking the server. Pure, client-safe (server/panel-contract.ts).

/** How a statement signs its amounts (presets.ts explains each). */
export const SIGN_CONVENTIONS = ["signed", "debit_credit", "positive_is_expense"] as const;
export type TSignConvention = (typeof SIGN_CONVENTIONS)[number];

/** Mapped fields, in resolution order. */
export const FIELDS = [
  "date",
  "amount",
  "debit",
  "credit",
  "currency",
  "description",
  "counterparty",
  "counterparty_account",
  "category",
  "reference",
  "account",
] as const;
export type TField = (typeof FIELDS)[number];

/** Which fields a sign convention needs: the date, the description and its amount columns. */
export function requiredFields(sign: TSignConvention): TField[] {
  return sign === "debit_credit" ? ["date", "debit", "credit", "description"] : ["date", "amount", "description"];
}
