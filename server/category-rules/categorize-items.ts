// The ingest path's use of the rules: events that arrive without a category get the category of
// the owner's first matching rule (and its project, when the event is in that project's business
// and names none). Events that carry a category keep it. One query for the rules per batch.
import type { TDbOrTx } from "../db/client";
import { categorize } from "./categorize";
import { counterpartyOfPayload, loadCategoryRules, ruleOutcome } from "./category-rule-service";

/** What the ingest path's items have that rules read and set (its TItem, without importing it). */
type TCategorizable = {
  event: { category?: string | null; description?: string | null; payload?: unknown };
  businessId: string;
  projectId: string | null;
};

export async function categorizeItems(db: TDbOrTx, ownerId: string, items: TCategorizable[]): Promise<void> {
  if (!items.some((item) => !item.event.category)) return;
  const rules = await loadCategoryRules(db, ownerId);
  if (rules.length === 0) return;
  for (const item of items) {
    if (item.event.category) continue;
    const rule = categorize(rules, {
      description: item.event.description,
      counterparty: counterpartyOfPayload(item.event.payload),
    });
    if (!rule) continue;
    const outcome = ruleOutcome(rule, item);
    item.event = { ...item.event, category: outcome.category };
    item.projectId = outcome.projectId;
  }
}
