"use client";
// The Rules page: the owner's category rules in the order they run, a form for a new rule whose
// dry run (how many existing events it would change) is shown before it can be saved, and an
// explicit "Apply to existing events". Saving a rule whose check counted existing events it would
// categorise offers, in the same step, to give them their category (issue 37), ticked by default.
// Imports (at preview) and webhooks apply them on their own.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "@/lib/trpc/client";
import { formErrorOf, type TFormError } from "@/lib/trpc/errors";
import type { TCategoryRule, TCategoryRuleDryRun } from "@/server/category-rules/category-rule.schema";
import { ActionButton } from "../ui/action-button";
import { CardHeader, CardSection } from "../ui/card";
import { DataTable, type TColumn } from "../ui/data-table";
import { EmptyState } from "../ui/empty-state";
import { Field, FormAlert, SubmitButton } from "../ui/field";
import { TagIcon, TrashIcon } from "../ui/icons";
import { useHydrated } from "../ui/use-hydrated";

export type TProjectOption = { id: string; label: string };

const FIELDS = ["field", "operator", "pattern", "category", "project_id"] as const;
const NO_ERRORS: TFormError = { fields: {}, summary: null };

const FIELD_LABELS: Record<TCategoryRule["field"], string> = { description: "Description", counterparty: "Counterparty" };
const OPERATOR_LABELS: Record<TCategoryRule["operator"], string> = {
  contains: "contains",
  equals: "equals",
  regex: "matches the regular expression",
};

type TDraft = {
  field: TCategoryRule["field"];
  operator: TCategoryRule["operator"];
  pattern: string;
  category: string;
  project_id: string;
};

const EMPTY_DRAFT: TDraft = { field: "description", operator: "contains", pattern: "", category: "", project_id: "" };

function inputOf(draft: TDraft) {
  return {
    field: draft.field,
    operator: draft.operator,
    pattern: draft.pattern,
    category: draft.category,
    project_id: draft.project_id || null,
  };
}

function dryRunText(result: TCategoryRuleDryRun): string {
  const events = (n: number) => `${n} existing event${n === 1 ? "" : "s"}`;
  const read = result.truncated ? ` (of the newest ${result.scanned} read)` : "";
  if (result.scanned === 0) return "You have no events yet: the rule will categorise new imports and incoming events.";
  if (result.matched === 0) return `This rule matches none of your ${result.scanned} existing events${read}.`;
  const kept = result.matched - result.would_change;
  return (
    `This rule would categorise ${events(result.would_change)}${read}. It matches ${result.matched}` +
    (kept > 0 ? `; ${kept} already ha${kept === 1 ? "s" : "ve"} a category and keep${kept === 1 ? "s" : ""} it.` : ".")
  );
}

export function RulesView(props: { initialRules: TCategoryRule[]; projects: TProjectOption[] }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const hydrated = useHydrated();
  const rules = useQuery({ ...trpc.categoryRules.find.queryOptions({}), initialData: { data: props.initialRules } });
  const [draft, setDraft] = useState<TDraft>(EMPTY_DRAFT);
  const [errors, setErrors] = useState<TFormError>(NO_ERRORS);
  const [checked, setChecked] = useState<{ key: string; result: TCategoryRuleDryRun } | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  // Give the existing events the check counted their category when the rule is saved.
  const [applyOnSave, setApplyOnSave] = useState(true);
  const [listError, setListError] = useState<string | null>(null);
  const draftKey = JSON.stringify(inputOf(draft));
  const preview = checked?.key === draftKey ? checked.result : null;

  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.categoryRules.find.pathKey() });

  const dryRun = useMutation(
    trpc.categoryRules.dryRun.mutationOptions({
      onSuccess: ({ data }, input) => {
        setErrors(NO_ERRORS);
        setChecked({ key: JSON.stringify(input), result: data });
      },
      onError: (error) => {
        setChecked(null);
        setErrors(formErrorOf(error, FIELDS));
      },
    }),
  );
  const create = useMutation(
    trpc.categoryRules.create.mutationOptions({
      onSuccess: async ({ data }) => {
        setErrors(NO_ERRORS);
        setChecked(null);
        setDraft(EMPTY_DRAFT);
        await afterSave(`The rule “${FIELD_LABELS[data.field]} ${OPERATOR_LABELS[data.operator]} ${data.pattern}” was added.`);
      },
      onError: (error) => setErrors(formErrorOf(error, FIELDS)),
    }),
  );
  // Editing loads a rule into the form; its changes are dry-run and saved the same way.
  const [editing, setEditing] = useState<TCategoryRule | null>(null);
  const edit = useMutation(
    trpc.categoryRules.update.mutationOptions({
      onSuccess: async ({ data }) => {
        setErrors(NO_ERRORS);
        setChecked(null);
        setDraft(EMPTY_DRAFT);
        setEditing(null);
        await afterSave(`The rule “${FIELD_LABELS[data.field]} ${OPERATOR_LABELS[data.operator]} ${data.pattern}” was saved.`);
      },
      onError: (error) => setErrors(formErrorOf(error, FIELDS)),
    }),
  );
  function startEditing(rule: TCategoryRule) {
    setEditing(rule);
    setDraft({
      field: rule.field,
      operator: rule.operator,
      pattern: rule.pattern,
      category: rule.category,
      project_id: rule.project_id ?? "",
    });
    setChecked(null);
    setErrors(NO_ERRORS);
    setNotice(null);
  }
  function stopEditing() {
    setEditing(null);
    setDraft(EMPTY_DRAFT);
    setChecked(null);
    setErrors(NO_ERRORS);
  }

  const remove = useMutation(
    trpc.categoryRules.delete.mutationOptions({
      onSuccess: async ({ data }) => {
        setListError(null);
        if (editing?.id === data.id) stopEditing();
        setNotice("The rule was deleted. Events it categorised keep their category.");
        await refresh();
      },
      onError: (error) => setListError(formErrorOf(error, []).summary),
    }),
  );
  // Reordering renumbers the rules 0, 10, 20, … in their new order (only the changed ones are sent).
  const update = useMutation(trpc.categoryRules.update.mutationOptions());
  const [moving, setMoving] = useState<string | null>(null);
  async function moveUp(rule: TCategoryRule) {
    const order = [...items];
    const at = order.indexOf(rule);
    if (at <= 0) return;
    [order[at - 1], order[at]] = [order[at]!, order[at - 1]!];
    setMoving(rule.id);
    setListError(null);
    try {
      for (const [index, item] of order.entries()) {
        if (item.priority !== index * 10) await update.mutateAsync({ id: item.id, priority: index * 10 });
      }
      setNotice(`“${rule.pattern}” now runs before “${order[at]!.pattern}”.`);
    } catch (error) {
      setListError(formErrorOf(error, []).summary);
    } finally {
      setMoving(null);
      await refresh();
    }
  }

  const appliedText = (updated: number) =>
    updated === 0
      ? "No existing event without a category matches your rules."
      : `${updated} existing event${updated === 1 ? "" : "s"} got a category.`;
  const apply = useMutation(
    trpc.categoryRules.applyAll.mutationOptions({
      onSuccess: ({ data }) => {
        setListError(null);
        setNotice(appliedText(data.updated));
      },
      onError: (error) => setListError(formErrorOf(error, []).summary),
    }),
  );
  /** After a rule is saved: the existing events its check counted get their category when asked (the rules in order). */
  async function afterSave(saved: string) {
    const wanted = applyOnSave && (preview?.would_change ?? 0) > 0;
    setNotice(saved);
    setApplyOnSave(true);
    await refresh();
    if (!wanted) return;
    try {
      const { data } = await apply.mutateAsync({});
      setNotice(`${saved} ${appliedText(data.updated)}`);
    } catch {
      // apply's onError has said why; the rule itself is saved.
    }
  }

  function change<K extends keyof TDraft>(key: K, value: TDraft[K]) {
    setDraft((current) => ({ ...current, [key]: value }));
    setNotice(null);
    if (errors.fields[key]) {
      const { [key]: _cleared, ...rest } = errors.fields;
      setErrors({ ...errors, fields: rest });
    }
  }

  const projectName = (id: string | null) => (id ? (props.projects.find((p) => p.id === id)?.label ?? "A project") : null);
  const items = rules.data.data;

  const columns: TColumn<TCategoryRule>[] = [
    { header: "#", cellClassName: "cell-date", cell: (rule) => items.indexOf(rule) + 1 },
    {
      header: "When",
      cell: (rule) => (
        <>
          <span>
            {FIELD_LABELS[rule.field]} {OPERATOR_LABELS[rule.operator]}{" "}
          </span>
          <span className="mono">{rule.pattern}</span>
          <div className="record-actions">
            {items.indexOf(rule) > 0 ? (
              <ActionButton
                look="button-ghost button-xs"
                pending={moving === rule.id}
                disabled={moving !== null}
                onClick={() => void moveUp(rule)}
              >
                Move up<span className="visually-hidden"> the rule {rule.pattern}</span>
              </ActionButton>
            ) : null}
            <button type="button" className="button button-ghost button-xs" onClick={() => startEditing(rule)}>
              Edit<span className="visually-hidden"> the rule {rule.pattern}</span>
            </button>
            <ActionButton
              look="button-ghost button-xs"
              pending={remove.isPending && remove.variables?.id === rule.id}
              disabled={remove.isPending}
              icon={<TrashIcon />}
              onClick={() => remove.mutate({ id: rule.id })}
            >
              Delete<span className="visually-hidden"> the rule {rule.pattern}</span>
            </ActionButton>
          </div>
        </>
      ),
    },
    {
      header: "Then",
      cell: (rule) => (
        <>
          <span className="badge">{rule.category}</span>
          {rule.project_id ? <span className="cell-sub">{projectName(rule.project_id)}</span> : null}
        </>
      ),
    },
  ];

  return (
    <div className="split">
      <section className="card" aria-labelledby="rules-heading">
        <CardHeader headingId="rules-heading" title="Your rules" wrap>
          {items.length > 0 ? (
            <ActionButton look="button-secondary" pending={apply.isPending} onClick={() => apply.mutate({})}>
              Apply to existing events
            </ActionButton>
          ) : null}
        </CardHeader>
        {listError ? (
          <div className="card-body card-body-tight">
            <FormAlert message={listError} />
          </div>
        ) : null}
        {items.length === 0 ? (
          <EmptyState icon={<TagIcon />} title="No rules yet">
            Add one with the form, for example “Description contains uber” → Transport. New imports and incoming events without a
            category then get the category of the first rule that matches.
          </EmptyState>
        ) : (
          <DataTable columns={columns} items={items} scroll />
        )}
        <p className="notice card-body card-body-tight" role="status">
          {notice ?? ""}
        </p>
      </section>

      <CardSection
        headingId="new-rule-heading"
        title={editing ? "Edit rule" : "New rule"}
        description="See how many existing events it would change before you save it."
      >
        <div className="card-body">
          <form
            className="form"
            aria-labelledby="new-rule-heading"
            noValidate
            onSubmit={(event) => {
              event.preventDefault();
              if (!preview) dryRun.mutate(inputOf(draft));
              else if (editing) edit.mutate({ id: editing.id, ...inputOf(draft) });
              else create.mutate(inputOf(draft));
            }}
          >
            <FormAlert message={errors.summary} />
            <Field label="Look at" error={errors.fields.field}>
              {(control) => (
                <select
                  {...control}
                  className="select"
                  value={draft.field}
                  onChange={(event) => change("field", event.target.value as TDraft["field"])}
                >
                  <option value="description">Description</option>
                  <option value="counterparty">Counterparty</option>
                </select>
              )}
            </Field>
            <Field
              label="Match"
              error={errors.fields.operator}
              hint={
                draft.operator === "regex" ? "RE2 syntax, case-insensitive; no backreferences or lookaround." : "Ignores case."
              }
            >
              {(control) => (
                <select
                  {...control}
                  className="select"
                  value={draft.operator}
                  onChange={(event) => change("operator", event.target.value as TDraft["operator"])}
                >
                  <option value="contains">Contains</option>
                  <option value="equals">Equals</option>
                  <option value="regex">Regular expression</option>
                </select>
              )}
            </Field>
            <Field label="Text" error={errors.fields.pattern}>
              {(control) => (
                <input
                  {...control}
                  className="input mono"
                  maxLength={200}
                  autoComplete="off"
                  spellCheck={false}
                  placeholder={draft.operator === "regex" ? "e.g. ^uber( eats)?" : "e.g. uber"}
                  value={draft.pattern}
                  onChange={(event) => change("pattern", event.target.value)}
                />
              )}
            </Field>
            <Field label="Category" error={errors.fields.category}>
              {(control) => (
                <input
                  {...control}
                  className="input"
                  maxLength={100}
                  autoComplete="off"
                  placeholder="e.g. Transport"
                  value={draft.category}
                  onChange={(event) => change("category", event.target.value)}
                />
              )}
            </Field>
            <Field
              label="Project (optional)"
              error={errors.fields.project_id}
              hint="Set on rows of that project's business that have no project yet."
            >
              {(control) => (
                <select
                  {...control}
                  className="select"
                  value={draft.project_id}
                  onChange={(event) => change("project_id", event.target.value)}
                >
                  <option value="">No project</option>
                  {props.projects.map((project) => (
                    <option key={project.id} value={project.id}>
                      {project.label}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            {preview ? (
              <div className="dry-run" role="status" aria-live="polite">
                <p>{dryRunText(preview)}</p>
                {preview.examples.length > 0 ? (
                  <ul className="dry-run-examples">
                    {preview.examples.map((example) => (
                      <li key={example.event_id}>
                        <span className="cell-date">{example.occurred_on}</span>{" "}
                        {example.description ?? example.counterparty ?? "—"}
                      </li>
                    ))}
                  </ul>
                ) : null}
              </div>
            ) : null}
            {preview && preview.would_change > 0 ? (
              <label className="checkbox">
                <input type="checkbox" checked={applyOnSave} onChange={(event) => setApplyOnSave(event.target.checked)} /> Also
                give the {preview.would_change === 1 ? "existing event" : `${preview.would_change} existing events`} without a
                category their category when I save
              </label>
            ) : null}
            <div className="form-actions">
              {preview ? (
                <>
                  <SubmitButton pending={create.isPending || edit.isPending} disabled={!hydrated} pendingLabel="Saving…">
                    {editing ? "Save changes" : "Save rule"}
                  </SubmitButton>
                  <button type="button" className="button button-secondary" onClick={() => setChecked(null)}>
                    Back
                  </button>
                </>
              ) : (
                <SubmitButton pending={dryRun.isPending} disabled={!hydrated} pendingLabel="Checking…">
                  Check matches
                </SubmitButton>
              )}
              {editing ? (
                <button type="button" className="button button-secondary" onClick={stopEditing}>
                  Cancel edit
                </button>
              ) : null}
            </div>
            <p className="hint">Saving is possible once the matches of these exact settings have been checked.</p>
          </form>
        </div>
      </CardSection>
    </div>
  );
}
