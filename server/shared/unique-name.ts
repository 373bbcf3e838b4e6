// Names of businesses (per owner) and projects (per business) are unique, case-insensitive: the
// database keeps name_key = lower(name) under a unique index (a trigger sets it, see the
// migration category_rules_and_unique_names). A write that collides answers 409 state_conflict
// with details naming the field, so a client can show it beside the name input.
import { z } from "zod";
import { AppError } from "../errors/app-error";

/** A PostgreSQL unique violation as Prisma reports it (P2002), through either driver adapter. */
export function isUniqueViolation(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === "P2002";
}

export function nameTaken(what: "business" | "project", name: string): AppError {
  const where = what === "business" ? "You already have a business" : "This business already has a project";
  return new AppError("state_conflict", `${where} named “${name}” (names are compared without case; archived ones count).`, {
    details: {
      reason: "name_taken",
      issues: [
        {
          path: "name",
          message: `is already used by ${what === "business" ? "another of your businesses" : "another project of this business"} (upper and lower case count as the same)`,
        },
      ],
    },
  });
}

/** Runs a write; a unique violation on the name key becomes nameTaken. */
export async function withUniqueName<T>(
  what: "business" | "project",
  name: string | undefined,
  write: () => Promise<T>,
): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (name !== undefined && isUniqueViolation(error)) throw nameTaken(what, name);
    throw error;
  }
}

/** Active or archived (archived: hidden from pickers, history kept). */
export const RECORD_STATUSES = ["active", "archived"] as const;
export const ZRecordStatus = z
  .enum(RECORD_STATUSES)
  .describe("active, or archived: hidden from the panel's pickers, its history (events, reports) kept. New values may be added.");
export type TRecordStatus = z.infer<typeof ZRecordStatus>;

export const ZStatusFilter = ZRecordStatus.optional().describe(
  "Only records of this status (additive, issue 14). Default: all, archived included, as before.",
);

/** The Prisma data that sets a status: archived_at now, or cleared. */
export function archivedAtFor(status: TRecordStatus | undefined, now: Date): { archivedAt?: Date | null } {
  if (status === undefined) return {};
  return { archivedAt: status === "archived" ? now : null };
}
