// The passport's text and list limits: one home for the schema (passport.schema.ts) and the
// panel's form, which counts characters against them. Pure, client-safe (server/panel-contract.ts):
// no zod here, so the panel's pages that only need the numbers do not load the schemas.
export const PASSPORT_LIMITS = {
  purpose: 500,
  responsibilities: 20,
  responsibility: 200,
  allowedActions: 50,
  allowedAction: 100,
  businesses: 100,
  notes: 1000,
  escalation: 1000,
} as const;
