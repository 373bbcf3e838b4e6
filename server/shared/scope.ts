// The scope of a record: exactly one of business_id, project_id (its business implied) or
// personal: true (DESIGN.md, Records). One schema for inputs, one resolver that checks
// ownership, one mapping for outputs.
import { z } from "zod";
import type { TDbOrTx } from "../db/client";
import { AppError } from "../errors/app-error";
import { ZUuid } from "./schemas";

/** The scope fields of an input; combine with `.superRefine(exactlyOneScope)` or use ZScopedInput. */
export const ZScopeFields = z.object({
  business_id: ZUuid.optional().describe(
    "The business it belongs to (its id); exactly one of business_id, project_id, personal.",
  ),
  project_id: ZUuid.optional().describe("The project it belongs to (its id; its business follows from it)."),
  personal: z.literal(true).optional().describe("true for the owner's personal finances."),
});
export type TScopeInput = z.infer<typeof ZScopeFields>;

/**
 * exactlyOneScope in JSON Schema, for the OpenAPI document (a refinement is invisible to it): spread
 * into the input's `.meta()`. `personal` can only be true, so "present" is the rule.
 */
export const EXACTLY_ONE_SCOPE_JSON = {
  oneOf: [{ required: ["business_id"] }, { required: ["project_id"] }, { required: ["personal"] }],
};

/** atMostOneScope (corrections: none keeps the scope) in JSON Schema, likewise. */
export const AT_MOST_ONE_SCOPE_JSON = {
  not: {
    anyOf: [
      { required: ["business_id", "project_id"] },
      { required: ["business_id", "personal"] },
      { required: ["project_id", "personal"] },
    ],
  },
};

/** Zod refinement: exactly one of business_id, project_id, personal. */
export function exactlyOneScope(value: TScopeInput, ctx: z.RefinementCtx): void {
  const given = [value.business_id !== undefined, value.project_id !== undefined, value.personal === true].filter(Boolean).length;
  if (given !== 1) {
    ctx.addIssue({
      code: "custom",
      path: ["business_id"],
      message: "give exactly one of business_id, project_id or personal: true",
    });
  }
}

export type TScope = { businessId: string | null; projectId: string | null; personal: boolean };

/** Checks that the business or project is the owner's (404 otherwise) and fills in the business. */
export async function resolveScope(db: TDbOrTx, ownerId: string, input: TScopeInput): Promise<TScope> {
  if (input.project_id) {
    const project = await db.project.findFirst({ where: { id: input.project_id, ownerId }, select: { businessId: true } });
    if (!project) throw AppError.notFound("project");
    return { businessId: project.businessId, projectId: input.project_id, personal: false };
  }
  if (input.business_id) {
    const business = await db.business.findFirst({ where: { id: input.business_id, ownerId }, select: { id: true } });
    if (!business) throw AppError.notFound("business");
    return { businessId: business.id, projectId: null, personal: false };
  }
  return { businessId: null, projectId: null, personal: true };
}

/** The scope fields of a record in API form. */
export const ZScopeOut = z.object({
  business_id: ZUuid.nullable(),
  project_id: ZUuid.nullable(),
  personal: z.boolean(),
});

export function toScopeDto(row: { businessId: string | null; projectId: string | null; personal: boolean }) {
  return { business_id: row.businessId, project_id: row.projectId, personal: row.personal };
}
