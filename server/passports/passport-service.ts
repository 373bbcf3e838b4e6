// Passports (pinned-wave2 §3.4): read (defaults with version 0 until first set), set by PUT,
// filled from a template. Every write is version + 1 (an atomic increment in the upsert, so two
// concurrent writes get two versions) and audited in its transaction (agent.passport_updated).
// A passport never grants anything: applying a template answers suggested grants only.
import type { TCaller } from "../auth/caller";
import { auditCaller } from "../audit/audit-service";
import type { TDbOrTx, TTx } from "../db/client";
import type { AgentPassport } from "../db/generated/client";
import { inTransaction } from "../db/transaction";
import { AppError } from "../errors/app-error";
import { exactMinorOrNull } from "../fx/money";
import type { TPassport, TPassportContent, TPassportFields, TPassportTemplate, TSuggestedGrant } from "./passport.schema";
import { findPassportTemplate, PASSPORT_TEMPLATES } from "./passport-templates";

export const EMPTY_PASSPORT_CONTENT: TPassportContent = {
  purpose: "",
  responsibilities: [],
  allowed_actions: [],
  constraints: { max_daily_spend_minor: null, currency: null, businesses: [], notes: null },
  escalation: "",
};

export function toPassportDto(agentId: string, row: AgentPassport | null): TPassport {
  if (!row) return { agent_id: agentId, version: 0, ...EMPTY_PASSPORT_CONTENT, template_id: null, updated_at: null };
  return {
    agent_id: row.agentId,
    version: row.version,
    purpose: row.purpose,
    responsibilities: row.responsibilities,
    allowed_actions: row.allowedActions,
    constraints: {
      max_daily_spend_minor: exactMinorOrNull(row.maxDailySpendMinor),
      currency: row.currency,
      businesses: row.businessIds,
      notes: row.notes,
    },
    escalation: row.escalation,
    template_id: row.templateId,
    updated_at: row.updatedAt.toISOString(),
  };
}

/** The passport of an agent already known to be the caller's owner's. */
export async function readPassport(db: TDbOrTx, agentId: string): Promise<TPassport> {
  return toPassportDto(agentId, await db.agentPassport.findUnique({ where: { agentId } }));
}

async function requireAgent(db: TDbOrTx, ownerId: string, agentId: string): Promise<{ status: string }> {
  const agent = await db.agent.findFirst({ where: { id: agentId, ownerId }, select: { status: true } });
  if (!agent) throw AppError.notFound("agent");
  return agent;
}

export async function getPassport(db: TDbOrTx, ownerId: string, agentId: string): Promise<TPassport> {
  await requireAgent(db, ownerId, agentId);
  return readPassport(db, agentId);
}

/** The fields sent, each omitted one at its default (PUT replaces the whole passport). */
export function contentOf(fields: TPassportFields): TPassportContent {
  const constraints = fields.constraints;
  return {
    purpose: fields.purpose ?? "",
    responsibilities: fields.responsibilities ?? [],
    allowed_actions: fields.allowed_actions ?? [],
    constraints: {
      max_daily_spend_minor: constraints?.max_daily_spend_minor ?? null,
      // A currency alone (no spend cap) says nothing; it is kept only with the cap it belongs to.
      currency: constraints?.max_daily_spend_minor == null ? null : (constraints.currency ?? null),
      businesses: [...new Set(constraints?.businesses ?? [])],
      notes: constraints?.notes ? constraints.notes : null,
    },
    escalation: fields.escalation ?? "",
  };
}

/** A template's passport with the overrides' fields in place of its own (each field replaced whole). */
export function contentFromTemplate(template: TPassportTemplate, overrides: TPassportFields | undefined): TPassportContent {
  const given = overrides ?? {};
  const fromOverrides = contentOf(given);
  return {
    purpose: given.purpose !== undefined ? fromOverrides.purpose : template.passport.purpose,
    responsibilities: given.responsibilities !== undefined ? fromOverrides.responsibilities : template.passport.responsibilities,
    allowed_actions: given.allowed_actions !== undefined ? fromOverrides.allowed_actions : template.passport.allowed_actions,
    constraints: given.constraints !== undefined ? fromOverrides.constraints : template.passport.constraints,
    escalation: given.escalation !== undefined ? fromOverrides.escalation : template.passport.escalation,
  };
}

/**
 * The template's grants, as suggestions: an `execute` grant takes the passport's declared daily
 * spend as its daily limit (so accepting it enforces what the passport says), the others none.
 */
export function suggestedGrantsFor(template: TPassportTemplate, content: TPassportContent): TSuggestedGrant[] {
  const { max_daily_spend_minor: daily, currency } = content.constraints;
  return template.suggested_grants.map((grant) =>
    grant.level === "execute" && daily !== null && currency !== null
      ? { ...grant, daily_limit_minor: daily, currency }
      : { ...grant },
  );
}

/** Businesses a passport names must be the owner's: an unknown or another owner's is 404, naming where. */
async function assertOwnBusinesses(db: TDbOrTx, ownerId: string, ids: string[], field: string): Promise<void> {
  if (ids.length === 0) return;
  const found = await db.business.findMany({ where: { ownerId, id: { in: ids } }, select: { id: true } });
  const known = new Set(found.map((business) => business.id));
  const index = ids.findIndex((id) => !known.has(id));
  if (index >= 0) {
    throw new AppError("not_found", `No such business: ${field}.${index} (${ids[index]}).`, {
      details: { resource: "business", id: ids[index], path: `${field}.${index}` },
    });
  }
}

async function writePassport(
  db: TDbOrTx,
  caller: TCaller,
  agentId: string,
  content: TPassportContent,
  templateId: string | null,
  businessesField: string,
): Promise<TPassport> {
  return inTransaction(db, async (tx: TTx) => {
    const agent = await requireAgent(tx, caller.ownerId, agentId);
    await assertOwnBusinesses(tx, caller.ownerId, content.constraints.businesses, businessesField);
    if (agent.status === "revoked") throw new AppError("state_conflict", "This agent is revoked; its passport cannot change.");
    const fields = {
      purpose: content.purpose,
      responsibilities: content.responsibilities,
      allowedActions: content.allowed_actions,
      maxDailySpendMinor:
        content.constraints.max_daily_spend_minor === null ? null : BigInt(content.constraints.max_daily_spend_minor),
      currency: content.constraints.currency,
      businessIds: content.constraints.businesses,
      notes: content.constraints.notes,
      escalation: content.escalation,
      templateId,
      updatedAt: caller.now,
    };
    const row = await tx.agentPassport.upsert({
      where: { agentId },
      create: { agentId, version: 1, ...fields },
      update: { version: { increment: 1 }, ...fields },
    });
    await auditCaller(
      tx,
      caller,
      "agent.passport_updated",
      { type: "agent", id: agentId },
      { template_id: templateId, version: row.version },
    );
    return toPassportDto(agentId, row);
  });
}

export function setPassport(db: TDbOrTx, caller: TCaller, agentId: string, fields: TPassportFields): Promise<TPassport> {
  return writePassport(db, caller, agentId, contentOf(fields), null, "constraints.businesses");
}

export async function applyPassportTemplate(
  db: TDbOrTx,
  caller: TCaller,
  agentId: string,
  input: { template_id: string; overrides?: TPassportFields },
): Promise<{ passport: TPassport; suggested_grants: TSuggestedGrant[] }> {
  // The schema has refused an unknown id already; this only narrows the type.
  const template = findPassportTemplate(input.template_id);
  if (!template) throw AppError.invalidField("template_id", "is not a passport template");
  const content = contentFromTemplate(template, input.overrides);
  const passport = await writePassport(db, caller, agentId, content, template.id, "overrides.constraints.businesses");
  return { passport, suggested_grants: suggestedGrantsFor(template, content) };
}

export function listPassportTemplates(): TPassportTemplate[] {
  return PASSPORT_TEMPLATES.map((template) => structuredClone(template));
}
