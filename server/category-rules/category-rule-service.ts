// The owner's category rules: list, create, update, delete, dry run, apply. Every query carries
// the owner id, so another owner's rule (or project) is simply not found.
import type { TCaller } from "../auth/caller";
import { auditCaller } from "../audit/audit-service";
import type { TDbOrTx } from "../db/client";
import type { CategoryRule } from "../db/generated/client";
import { inTransaction } from "../db/transaction";
import { AppError } from "../errors/app-error";
import { requireProject } from "../projects/project-service";
import {
  categorize,
  compileRule,
  patternProblem,
  RULE_FIELDS,
  RULE_OPERATORS,
  type TCompiledRule,
  type TRuleSpec,
} from "./categorize";
import {
  DRY_RUN_EXAMPLES,
  DRY_RUN_MAX_EVENTS,
  MAX_RULES_PER_OWNER,
  type TCategoryRule,
  type TCategoryRuleDryRun,
  type TCreateCategoryRuleInput,
  type TDryRunCategoryRuleInput,
  type TUpdateCategoryRuleInput,
} from "./category-rule.schema";
import { parseState } from "../shared/parse-state";

export function toCategoryRuleDto(row: CategoryRule): TCategoryRule {
  return {
    id: row.id,
    field: parseState(RULE_FIELDS, row.field),
    operator: parseState(RULE_OPERATORS, row.operator),
    pattern: row.pattern,
    category: row.category,
    project_id: row.projectId,
    priority: row.priority,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

const RULE_ORDER = [{ priority: "asc" as const }, { createdAt: "asc" as const }, { id: "asc" as const }];

/** The owner's rules in the order they run. */
export async function findCategoryRules(db: TDbOrTx, ownerId: string): Promise<TCategoryRule[]> {
  const rows = await db.categoryRule.findMany({ where: { ownerId }, orderBy: RULE_ORDER });
  return rows.map(toCategoryRuleDto);
}

/** A compiled rule with the business of its project (a project applies only inside its business). */
export type TLoadedRule = TCompiledRule & { projectBusinessId: string | null };

/** The owner's rules, compiled, in order (one query for the rules, one for their projects). */
export async function loadCategoryRules(db: TDbOrTx, ownerId: string): Promise<TLoadedRule[]> {
  const rows = await db.categoryRule.findMany({ where: { ownerId }, orderBy: RULE_ORDER });
  if (rows.length === 0) return [];
  const projectIds = [...new Set(rows.flatMap((row) => (row.projectId ? [row.projectId] : [])))];
  const projects = projectIds.length
    ? await db.project.findMany({ where: { ownerId, id: { in: projectIds } }, select: { id: true, businessId: true } })
    : [];
  const businessOf = new Map(projects.map((p) => [p.id, p.businessId]));
  return rows.map((row) => {
    const dto = toCategoryRuleDto(row);
    const projectBusinessId = row.projectId ? (businessOf.get(row.projectId) ?? null) : null;
    return { ...compileRule(specOf(dto)), projectBusinessId };
  });
}

function specOf(rule: TRuleSpec): TRuleSpec {
  return {
    id: rule.id,
    field: rule.field,
    operator: rule.operator,
    pattern: rule.pattern,
    category: rule.category,
    project_id: rule.project_id ?? null,
  };
}

/** What a matching rule sets on a row of `businessId` that has `projectId` (or none). */
export function ruleOutcome(
  rule: TLoadedRule,
  row: { businessId: string | null; projectId: string | null },
): { category: string; projectId: string | null } {
  const project =
    rule.project_id && !row.projectId && rule.projectBusinessId !== null && rule.projectBusinessId === row.businessId
      ? rule.project_id
      : row.projectId;
  return { category: rule.category, projectId: project };
}

async function requireRule(db: TDbOrTx, ownerId: string, id: string): Promise<CategoryRule> {
  const row = await db.categoryRule.findFirst({ where: { id, ownerId } });
  if (!row) throw AppError.notFound("category rule");
  return row;
}

export async function createCategoryRule(db: TDbOrTx, caller: TCaller, input: TCreateCategoryRuleInput) {
  const { ownerId } = caller;
  if (input.project_id) await requireProject(db, ownerId, input.project_id);
  return inTransaction(db, async (tx) => {
    const count = await tx.categoryRule.count({ where: { ownerId } });
    if (count >= MAX_RULES_PER_OWNER) {
      throw new AppError(
        "state_conflict",
        `You have ${MAX_RULES_PER_OWNER} rules, the most one owner can keep; delete one first.`,
        {
          details: { reason: "too_many_rules", limit: MAX_RULES_PER_OWNER },
        },
      );
    }
    const last = await tx.categoryRule.aggregate({ where: { ownerId }, _max: { priority: true } });
    const row = await tx.categoryRule.create({
      data: {
        ownerId,
        field: input.field,
        operator: input.operator,
        pattern: input.pattern,
        category: input.category,
        projectId: input.project_id ?? null,
        priority: input.priority ?? Math.min((last._max.priority ?? -1) + 1, 1_000_000),
      },
    });
    await auditCaller(tx, caller, "category_rule.created", { type: "category_rule", id: row.id });
    return toCategoryRuleDto(row);
  });
}

export async function updateCategoryRule(db: TDbOrTx, caller: TCaller, id: string, input: TUpdateCategoryRuleInput) {
  const { ownerId } = caller;
  return inTransaction(db, async (tx) => {
    const current = toCategoryRuleDto(await requireRule(tx, ownerId, id));
    if (input.project_id) await requireProject(tx, ownerId, input.project_id);
    // The pattern is checked against the operator it will run with (a new one, or the stored one).
    const operator = input.operator ?? current.operator;
    const pattern = input.pattern ?? current.pattern;
    const problem = patternProblem(operator, pattern);
    if (problem) throw AppError.invalidField("pattern", problem);
    const row = await tx.categoryRule.update({
      where: { id },
      data: {
        field: input.field,
        operator: input.operator,
        pattern: input.pattern,
        category: input.category,
        projectId: input.project_id === undefined ? undefined : input.project_id,
        priority: input.priority,
      },
    });
    await auditCaller(tx, caller, "category_rule.updated", { type: "category_rule", id }, { fields: Object.keys(input) });
    return toCategoryRuleDto(row);
  });
}

export async function deleteCategoryRule(db: TDbOrTx, caller: TCaller, id: string) {
  return inTransaction(db, async (tx) => {
    const row = await requireRule(tx, caller.ownerId, id);
    await tx.categoryRule.delete({ where: { id: row.id } });
    await auditCaller(tx, caller, "category_rule.deleted", { type: "category_rule", id }, { rule: toCategoryRuleDto(row) });
    return { id, deleted: true as const };
  });
}

type TScannedEvent = {
  id: string;
  occurredOn: Date;
  description: string | null;
  category: string | null;
  businessId: string | null;
  projectId: string | null;
  payload: unknown;
};

/** payload.counterparty when it is text (imported lines and integrations that send one). */
export function counterpartyOfPayload(payload: unknown): string | null {
  const value = (payload as { counterparty?: unknown } | null)?.counterparty;
  return typeof value === "string" ? value : null;
}

/** The owner's newest confirmed events, at most DRY_RUN_MAX_EVENTS (+1 to learn truncation). */
async function scanEvents(db: TDbOrTx, ownerId: string): Promise<{ events: TScannedEvent[]; truncated: boolean }> {
  const rows = await db.financialEvent.findMany({
    where: { ownerId, status: "confirmed" },
    orderBy: [{ occurredOn: "desc" }, { id: "desc" }],
    take: DRY_RUN_MAX_EVENTS + 1,
    select: { id: true, occurredOn: true, description: true, category: true, businessId: true, projectId: true, payload: true },
  });
  return { events: rows.slice(0, DRY_RUN_MAX_EVENTS), truncated: rows.length > DRY_RUN_MAX_EVENTS };
}

/**
 * How many existing events a rule would change, without writing. Rules fill in what is missing,
 * as at ingest: an event that has a category keeps it, so only matching events without one count.
 */
export async function dryRunCategoryRule(
  db: TDbOrTx,
  ownerId: string,
  input: TDryRunCategoryRuleInput,
): Promise<TCategoryRuleDryRun> {
  if (input.project_id) await requireProject(db, ownerId, input.project_id);
  const rule = compileRule(specOf({ ...input, project_id: input.project_id ?? null }));
  const { events, truncated } = await scanEvents(db, ownerId);
  let matched = 0;
  let wouldChange = 0;
  const examples: TCategoryRuleDryRun["examples"] = [];
  for (const event of events) {
    const counterparty = counterpartyOfPayload(event.payload);
    if (!categorize([rule], { description: event.description, counterparty })) continue;
    matched++;
    if (event.category) continue;
    wouldChange++;
    if (examples.length < DRY_RUN_EXAMPLES) {
      examples.push({
        event_id: event.id,
        occurred_on: event.occurredOn.toISOString().slice(0, 10),
        description: event.description,
        counterparty,
        category_before: event.category,
        category_after: rule.category,
      });
    }
  }
  return { matched, would_change: wouldChange, scanned: events.length, truncated, examples };
}

/**
 * Applies the owner's rules, in order, to their existing confirmed events without a category
 * (the newest DRY_RUN_MAX_EVENTS): an explicit action, one audit entry with the count. Money,
 * dates and scope never change; a rule's project is set only on events of its business that
 * have none.
 */
export async function applyCategoryRules(db: TDbOrTx, caller: TCaller) {
  const { ownerId } = caller;
  return inTransaction(db, async (tx) => {
    const rules = await loadCategoryRules(tx, ownerId);
    const { events, truncated } = await scanEvents(tx, ownerId);
    const changes = new Map<string, string[]>();
    for (const event of events) {
      if (event.category) continue;
      const rule = categorize(rules, { description: event.description, counterparty: counterpartyOfPayload(event.payload) });
      if (!rule) continue;
      const outcome = ruleOutcome(rule, event);
      const key = JSON.stringify([outcome.category, outcome.projectId]);
      changes.set(key, [...(changes.get(key) ?? []), event.id]);
    }
    let updated = 0;
    for (const [key, ids] of changes) {
      const [category, projectId] = JSON.parse(key) as [string, string | null];
      const result = await tx.financialEvent.updateMany({
        where: { ownerId, id: { in: ids }, category: null },
        data: { category, ...(projectId ? { projectId } : {}) },
      });
      updated += result.count;
    }
    await auditCaller(tx, caller, "category_rules.applied", null, {
      updated,
      scanned: events.length,
      truncated,
      rules: rules.length,
    });
    return { updated, scanned: events.length, truncated };
  });
}
