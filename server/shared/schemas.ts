// Zod building blocks shared by every domain (contract: Records conventions of DESIGN.md).
import { z } from "zod";
import { isDayInRange, isInstantInRange, MAX_DAY, MIN_DAY, unsafeTextReason } from "./safe-text";

export const ZUuid = z.uuid({ message: "must be a UUID" });

/** Path parameter `id` typed as a UUID (a non-UUID answers 400 validation_error). */
export const ZIdParam = z.object({ id: ZUuid });

/** ISO 4217 code, upper case. Whether a rate source covers it is the FX module's question. */
export const ZCurrency = z
  .string()
  .regex(/^[A-Z]{3}$/, { message: "must be an ISO 4217 code in upper case, e.g. EUR" })
  .meta({ example: "EUR" });

/** A calendar day, YYYY-MM-DD, that exists, from 1900 to 2999 (PostgreSQL and JS dates agree there). */
export const ZDate = z.iso
  .date({ message: "must be a date YYYY-MM-DD" })
  // Only a well-formed day is checked for range: a malformed one has its format issue already.
  .refine((value) => !/^\d{4}-\d{2}-\d{2}$/.test(value) || isDayInRange(value), {
    message: `must be between ${MIN_DAY} and ${MAX_DAY}`,
  });

/**
 * A stored day in an answer: well-formed, without the input range. Rows written before the
 * 1900–2999 rule (0001-01-01 and 1899-12-31 were accepted then) must still read: an answer's
 * schema never fails on stored data.
 */
export const ZStoredDate = z.iso.date();

export const ZTimestamp = z.iso
  .datetime({ offset: true })
  .refine((value) => Number.isNaN(Date.parse(value)) || isInstantInRange(new Date(value)), {
    message: `must be between ${MIN_DAY} and ${MAX_DAY}`,
  })
  .meta({ example: "2026-11-22T08:30:00.000Z" });

/**
 * Text PostgreSQL can store: no NUL, no lone surrogate. Every free-text field builds on it
 * (the REST body reader refuses such bodies too; this covers the panel and ingest items).
 */
export const ZText = z.string().refine((value) => unsafeTextReason(value) === null, {
  error: (issue) => unsafeTextReason(issue.input as string) ?? "is not valid text",
});

/** Integer minor units. Floats and numbers beyond the safe range are refused, never rounded. */
export const ZAmountMinor = z
  .number()
  .int({ message: "must be an integer number of minor units" })
  .refine(Number.isSafeInteger, { message: "is beyond the exact integer range" });

/**
 * A stored amount in an answer: integer minor units, or null for a value stored beyond the
 * exact range (only by direct database access: every write refuses one). Never rounded.
 */
export function zStoredMinor(description: string) {
  return z
    .number()
    .int()
    .nullable()
    .describe(
      `${description} null only for a value stored beyond the exact integer range ±(2^53 − 1), which no write accepts; never rounded.`,
    );
}

export const ZName = ZText.trim().min(1, { message: "must not be empty" }).max(200);

/**
 * A number in a query string (`?limit=5`). Query values are text, so the schema converts them
 * itself (z.coerce: Number(value), as the OpenAPI adapter once did for every query); `abc` fails
 * as not a number, `""` is 0. Never in a body: JSON has real numbers, and `"100"` stays a 400.
 */
export function zQueryNumber() {
  return z.coerce.number();
}

/** Query booleans arrive as strings; "false" must mean false. */
export const ZQueryBoolean = z
  .union([z.boolean(), z.enum(["true", "false", "1", "0"])])
  .transform((value) => value === true || value === "true" || value === "1");

export function toIso(date: Date): string {
  return date.toISOString();
}
