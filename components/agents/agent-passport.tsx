"use client";
// An agent's passport on its page (pinned-wave2 §3.4): what the agent is for, in the owner's
// words; edited in a form that shows every problem at once, or filled from a template whose
// suggested grants the owner accepts one by one (each acceptance is agents.update, the grants
// operation; a template never grants). Beside it, the agent's limits used today and this month.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useId, useMemo, useState, type FormEvent } from "react";
import { formatMinor } from "@/lib/money";
import { useTRPC } from "@/lib/trpc/client";
import { appCodeOf, formErrorByPath, formErrorOf, type TFormError } from "@/lib/trpc/errors";
import type { TAgent } from "@/server/agents/agent.schema";
import type { TGrantUsage, TGrantWithUsage } from "@/server/agents/agent-me.schema";
import type { TPassport, TPassportTemplate, TSuggestedGrant } from "@/server/passports/passport.schema";
import { COMMON_CURRENCIES } from "../businesses/currencies";
import { DateTime } from "../panel/preferences";
import { ActionButton } from "../ui/action-button";
import { CardHeader } from "../ui/card";
import { EmptyState } from "../ui/empty-state";
import { Field, FieldError, FormAlert, SubmitButton } from "../ui/field";
import { BookmarkIcon, CheckIcon, WalletIcon } from "../ui/icons";
import { useHydrated } from "../ui/use-hydrated";
import { levelLabel, resourceLabel, SCOPE_LABELS, type TResourceOption } from "./grants";
import {
  draftFromPassport,
  grantFromSuggestion,
  grantInputs,
  holdsGrant,
  passportFieldOf,
  passportFromDraft,
  type TPassportDraft,
  type TPassportField,
} from "./passport-values";

type TProps = {
  agent: TAgent;
  resources: TResourceOption[];
  defaultCurrency: string;
  /** After a suggested grant was accepted: the agent's grants changed outside the grants form. */
  onGrantsChanged?: () => void;
};

type TMode = "view" | "edit" | "template";

const NO_ERRORS: TFormError = { fields: {}, summary: null };

const scopeLabel = (scope: string) => SCOPE_LABELS[scope as keyof typeof SCOPE_LABELS] ?? scope;

export function AgentPassport(props: TProps) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const agentId = props.agent.id;
  const revoked = props.agent.status === "revoked";
  const passportQuery = useQuery(trpc.passports.get.queryOptions({ id: agentId }));
  const [mode, setMode] = useState<TMode>("view");
  const [notice, setNotice] = useState<string | null>(null);
  const [suggested, setSuggested] = useState<{ template: string; grants: TSuggestedGrant[] } | null>(null);

  const passport = passportQuery.data?.data ?? null;

  function stored(next: TPassport, message: string) {
    queryClient.setQueryData(trpc.passports.get.queryKey({ id: agentId }), { data: next });
    setMode("view");
    setNotice(message);
  }

  return (
    <>
      <section className="card" aria-labelledby="passport-heading">
        <CardHeader
          headingId="passport-heading"
          title="Passport"
          description={
            revoked
              ? "Read-only: the agent is revoked."
              : "What the agent is for, in your words; it reads it with GET /v1/agents/me. It describes: grants alone decide what it may do."
          }
        >
          {passport && passport.version > 0 ? (
            <span className="count" style={{ whiteSpace: "nowrap" }}>
              Version {passport.version}
            </span>
          ) : null}
        </CardHeader>
        {passportQuery.isError ? (
          <div className="card-body">
            <FormAlert message={formErrorOf(passportQuery.error, []).summary} />
          </div>
        ) : !passport ? (
          <div className="card-body">
            <p className="muted">Loading the passport…</p>
          </div>
        ) : mode === "edit" ? (
          <div className="card-body">
            <PassportForm
              agentId={agentId}
              passport={passport}
              resources={props.resources}
              defaultCurrency={props.defaultCurrency}
              onSaved={(next) => stored(next, `Passport saved (version ${next.version}).`)}
              onCancel={() => setMode("view")}
            />
          </div>
        ) : mode === "template" ? (
          <div className="card-body">
            <TemplatePicker
              agentId={agentId}
              passport={passport}
              onApplied={(next, template, grants) => {
                stored(next, `Passport filled from “${template.name}” (version ${next.version}).`);
                setSuggested({ template: template.name, grants });
              }}
              onCancel={() => setMode("view")}
            />
          </div>
        ) : (
          <>
            {passport.version === 0 ? (
              <EmptyState icon={<BookmarkIcon />} title="No passport yet">
                Say what this agent is for, what it looks after, what it may do and when it should hand over to you. Write it
                yourself or start from a template (bookkeeping assistant, ad-spend optimiser, forecaster, cash guardian); a
                template also suggests the grants such an agent needs, for you to accept one by one.
              </EmptyState>
            ) : (
              <PassportDetails passport={passport} resources={props.resources} />
            )}
            <div className="card-body card-body-top">
              <div className="form-actions passport-actions">
                <button type="button" className="button button-primary" disabled={revoked} onClick={() => setMode("edit")}>
                  {passport.version === 0 ? "Write passport" : "Edit passport"}
                </button>
                <button type="button" className="button button-secondary" disabled={revoked} onClick={() => setMode("template")}>
                  {passport.version === 0 ? "Start from a template" : "Apply a template"}
                </button>
                <p className="notice notice-inline" role="status">
                  {notice ?? ""}
                </p>
              </div>
            </div>
          </>
        )}
      </section>

      {suggested ? (
        <SuggestedGrants
          agent={props.agent}
          templateName={suggested.template}
          suggestions={suggested.grants}
          passport={passport}
          resources={props.resources}
          onGrantsChanged={props.onGrantsChanged}
          onDismiss={() => setSuggested(null)}
        />
      ) : null}

      <AgentLimits agentId={agentId} agentUpdatedAt={props.agent.updated_at} resources={props.resources} />
    </>
  );
}

function List({ items, empty }: { items: string[]; empty: string }) {
  if (items.length === 0) return <span className="muted">{empty}</span>;
  return (
    <ul className="passport-list">
      {items.map((item, index) => (
        <li key={index}>{item}</li>
      ))}
    </ul>
  );
}

function PassportDetails({ passport, resources }: { passport: TPassport; resources: TResourceOption[] }) {
  const c = passport.constraints;
  return (
    <dl className="details">
      <dt>Purpose</dt>
      <dd>{passport.purpose || <span className="muted">Not said</span>}</dd>
      <dt>Responsibilities</dt>
      <dd>
        <List items={passport.responsibilities} empty="None listed" />
      </dd>
      <dt>Allowed actions</dt>
      <dd>
        <List items={passport.allowed_actions} empty="None listed" />
      </dd>
      <dt>Daily spend</dt>
      <dd className="amount">
        {c.max_daily_spend_minor !== null && c.currency ? (
          `At most ${formatMinor(c.max_daily_spend_minor, c.currency)} a day`
        ) : (
          <span className="muted">Not declared</span>
        )}
      </dd>
      <dt>Businesses</dt>
      <dd>
        <List items={c.businesses.map((id) => resourceLabel(`business:${id}`, resources))} empty="Any (none named)" />
      </dd>
      <dt>Notes</dt>
      <dd>{c.notes ?? <span className="muted">None</span>}</dd>
      <dt>Escalation</dt>
      <dd>{passport.escalation || <span className="muted">Not said</span>}</dd>
      <dt>Last changed</dt>
      <dd>
        {passport.updated_at ? <DateTime iso={passport.updated_at} withTime /> : null}
        {passport.template_id ? <span className="cell-sub">From the template {passport.template_id}</span> : null}
      </dd>
    </dl>
  );
}

/** The passport form: every field of PUT, all problems shown at once (the form's own, then the server's). */
function PassportForm(props: {
  agentId: string;
  passport: TPassport;
  resources: TResourceOption[];
  defaultCurrency: string;
  onSaved: (passport: TPassport) => void;
  onCancel: () => void;
}) {
  const trpc = useTRPC();
  const hydrated = useHydrated();
  const [draft, setDraft] = useState<TPassportDraft>(() => draftFromPassport(props.passport, props.defaultCurrency));
  const [errors, setErrors] = useState<TFormError>(NO_ERRORS);
  const save = useMutation(trpc.passports.update.mutationOptions());
  const businesses = props.resources.filter((option) => option.group === "Businesses");
  const currencies = useMemo(
    () => [...new Set([draft.currency, props.defaultCurrency, ...COMMON_CURRENCIES.map((currency) => currency.code)])],
    [draft.currency, props.defaultCurrency],
  );
  const businessesLegend = useId();

  function change<K extends TPassportField>(field: K, value: TPassportDraft[K]) {
    setDraft((current) => ({ ...current, [field]: value }));
    if (errors.fields[field]) {
      const { [field]: _cleared, ...rest } = errors.fields;
      setErrors({ ...errors, fields: rest });
    }
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const { fields, errors: found } = passportFromDraft(draft);
    if (Object.keys(found).length > 0) {
      setErrors({ fields: found as Record<string, string>, summary: "Fix the fields marked below; nothing was saved." });
      focusFirstError(form);
      return;
    }
    try {
      const { data } = await save.mutateAsync({ id: props.agentId, ...fields });
      props.onSaved(data);
    } catch (error) {
      setErrors(serverErrors(error));
      focusFirstError(form);
    }
  }

  const text = (field: TPassportField, label: string, hint: string, rows: number) => (
    <Field label={label} hint={hint} error={errors.fields[field]}>
      {(control) => (
        <textarea
          {...control}
          className="input textarea"
          name={field}
          rows={rows}
          value={draft[field] as string}
          onChange={(event) => change(field, event.target.value)}
        />
      )}
    </Field>
  );

  return (
    <form className="form" onSubmit={onSubmit} noValidate aria-label="Edit passport">
      <FormAlert message={errors.summary} />
      {text("purpose", "Purpose", "What the agent is for, in a sentence or two (at most 500 characters).", 2)}
      {text(
        "responsibilities",
        "Responsibilities",
        "One per line: what it looks after (at most 20, each up to 200 characters).",
        4,
      )}
      {text(
        "allowed_actions",
        "Allowed actions",
        "One per line: what it may do, in your words (at most 50, each up to 100 characters).",
        3,
      )}
      <div className="form-grid">
        <Field
          label="Daily spend"
          hint="Optional. The most it means to spend a day; a grant's daily limit enforces it."
          error={errors.fields.spend}
        >
          {(control) => (
            <input
              {...control}
              className="input input-amount"
              name="spend"
              inputMode="decimal"
              autoComplete="off"
              placeholder="Not declared"
              value={draft.spend}
              onChange={(event) => change("spend", event.target.value)}
            />
          )}
        </Field>
        <Field label="Currency" error={errors.fields.currency}>
          {(control) => (
            <select
              {...control}
              className="select"
              name="currency"
              value={draft.currency}
              onChange={(event) => change("currency", event.target.value)}
            >
              {currencies.map((code) => (
                <option key={code} value={code}>
                  {code}
                </option>
              ))}
            </select>
          )}
        </Field>
      </div>
      <fieldset
        className="plain-fieldset field"
        aria-describedby={errors.fields.businesses ? `${businessesLegend}-error` : undefined}
      >
        <legend className="label" id={businessesLegend}>
          Businesses it works on
        </legend>
        <FieldError message={errors.fields.businesses} id={`${businessesLegend}-error`} />
        {businesses.length === 0 ? (
          <p className="hint">You have no businesses yet; the passport can name them once you add some.</p>
        ) : (
          <div className="passport-businesses">
            {businesses.map((option) => {
              const id = option.value.slice("business:".length);
              return (
                <label key={option.value} className="checkbox">
                  <input
                    type="checkbox"
                    className="checkbox-input"
                    checked={draft.businesses.includes(id)}
                    onChange={(event) =>
                      change(
                        "businesses",
                        event.target.checked ? [...draft.businesses, id] : draft.businesses.filter((business) => business !== id),
                      )
                    }
                  />
                  {option.label}
                </label>
              );
            })}
          </div>
        )}
      </fieldset>
      {text("notes", "Notes", "Optional. Anything else the agent must respect (at most 1,000 characters).", 2)}
      {text("escalation", "Escalation", "When and how it hands over to you, and whom to contact (at most 1,000 characters).", 2)}
      <div className="form-actions">
        <SubmitButton pending={save.isPending} disabled={!hydrated} pendingLabel="Saving…">
          Save passport
        </SubmitButton>
        <button type="button" className="button button-secondary" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/** The server's refusal by field: issues by path, a business that is not the owner's (404) at the businesses. */
function serverErrors(error: unknown): TFormError {
  if (appCodeOf(error) === "not_found") {
    return {
      fields: { businesses: "One of these businesses no longer exists. Untick it and save again." },
      summary: "Nothing was saved.",
    };
  }
  return formErrorByPath(error, passportFieldOf);
}

function focusFirstError(form: HTMLFormElement) {
  requestAnimationFrame(() => form.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
}

/** Pick a template and apply it: the passport is filled (a new version); its grants come back as suggestions. */
function TemplatePicker(props: {
  agentId: string;
  passport: TPassport;
  onApplied: (passport: TPassport, template: TPassportTemplate, grants: TSuggestedGrant[]) => void;
  onCancel: () => void;
}) {
  const trpc = useTRPC();
  const templates = useQuery(trpc.passports.templates.queryOptions({}));
  const apply = useMutation(trpc.passports.applyTemplate.mutationOptions());
  const [chosen, setChosen] = useState<string | null>(null);
  const c = props.passport.constraints;
  const hasConstraints = c.max_daily_spend_minor !== null || c.businesses.length > 0 || c.notes !== null;
  const [keepConstraints, setKeepConstraints] = useState(hasConstraints);
  const [error, setError] = useState<string | null>(null);
  const list = templates.data?.data ?? [];

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const template = list.find((t) => t.id === chosen);
    if (!template) {
      setError("Choose a template first.");
      return;
    }
    try {
      const overrides = keepConstraints && hasConstraints ? { constraints: c } : undefined;
      const { data } = await apply.mutateAsync({ id: props.agentId, template_id: template.id, overrides });
      props.onApplied(data.passport, template, data.suggested_grants);
    } catch (thrown) {
      setError(formErrorOf(thrown, []).summary ?? "That did not work. Try again.");
    }
  }

  return (
    <form className="form" onSubmit={onSubmit} noValidate aria-label="Apply a template">
      <FormAlert message={templates.isError ? formErrorOf(templates.error, []).summary : error} />
      <fieldset className="plain-fieldset template-options">
        <legend className="label">Template</legend>
        {templates.isPending ? <p className="muted">Loading templates…</p> : null}
        {list.map((template) => (
          <label key={template.id} className="template-option">
            <input
              type="radio"
              name="template"
              value={template.id}
              checked={chosen === template.id}
              onChange={() => {
                setChosen(template.id);
                setError(null);
              }}
            />
            <span>
              <span className="cell-strong">{template.name}</span>
              <span className="cell-sub">{template.description}</span>
              <span className="cell-sub">
                Suggests:{" "}
                {template.suggested_grants.map((g) => `${scopeLabel(g.scope)} (${levelLabel(g.level).toLowerCase()})`).join(", ")}
              </span>
            </span>
          </label>
        ))}
      </fieldset>
      {hasConstraints ? (
        <label className="checkbox">
          <input
            type="checkbox"
            className="checkbox-input"
            checked={keepConstraints}
            onChange={(event) => setKeepConstraints(event.target.checked)}
          />
          Keep this passport&apos;s constraints (daily spend, businesses, notes)
        </label>
      ) : null}
      <p className="hint">
        Applying replaces the passport with the template&apos;s (a new version). Its grants are only suggested: nothing is granted
        until you accept each one.
      </p>
      <div className="form-actions">
        <SubmitButton pending={apply.isPending} pendingLabel="Applying…">
          Apply template
        </SubmitButton>
        <button type="button" className="button button-secondary" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

function suggestionText(grant: {
  daily_limit_minor: number | null;
  monthly_limit_minor: number | null;
  currency: string | null;
}) {
  const limits = [
    grant.daily_limit_minor !== null && grant.currency ? `${formatMinor(grant.daily_limit_minor, grant.currency)} a day` : null,
    grant.monthly_limit_minor !== null && grant.currency
      ? `${formatMinor(grant.monthly_limit_minor, grant.currency)} a month`
      : null,
  ].filter(Boolean);
  return limits.length ? `Limit ${limits.join(", ")}` : "No spending limit";
}

/** A template's grants, each accepted (or not) by the owner on the resource they choose. */
function SuggestedGrants(props: {
  agent: TAgent;
  templateName: string;
  suggestions: TSuggestedGrant[];
  passport: TPassport | null;
  resources: TResourceOption[];
  onGrantsChanged?: () => void;
  onDismiss: () => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const firstBusiness = props.passport?.constraints.businesses[0];
  const defaultResource =
    firstBusiness && props.resources.some((option) => option.value === `business:${firstBusiness}`)
      ? `business:${firstBusiness}`
      : "*";
  const [resources, setResources] = useState<string[]>(() => props.suggestions.map(() => defaultResource));
  const [pendingIndex, setPendingIndex] = useState<number | null>(null);
  const [errors, setErrors] = useState<Record<number, string>>({});
  const update = useMutation(trpc.agents.update.mutationOptions());
  const groups = (["General", "Businesses", "Projects"] as const).map((group) => ({
    group,
    options: props.resources.filter((option) => option.group === group),
  }));

  async function accept(index: number) {
    const wanted = grantFromSuggestion(props.suggestions[index]!, resources[index]!);
    setPendingIndex(index);
    try {
      // The grants operation replaces the list: the agent's current grants go again, with this one added.
      const { data } = await update.mutateAsync({ id: props.agent.id, grants: [...grantInputs(props.agent.grants), wanted] });
      queryClient.setQueryData(trpc.agents.get.queryKey({ id: data.id }), { data });
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: trpc.agents.find.pathKey() }),
        queryClient.invalidateQueries({ queryKey: trpc.agents.limits.queryKey({ id: data.id }) }),
      ]);
      setErrors(({ [index]: _cleared, ...rest }) => rest);
      props.onGrantsChanged?.();
    } catch (error) {
      setErrors((current) => ({ ...current, [index]: formErrorOf(error, []).summary ?? "That did not work. Try again." }));
    } finally {
      setPendingIndex(null);
    }
  }

  return (
    <section className="card" aria-labelledby="suggested-heading">
      <CardHeader
        headingId="suggested-heading"
        title="Suggested grants"
        description={`From “${props.templateName}”. Nothing is granted until you accept one. Accepting saves the agent's grants as “Name and grants” does; what was already spent still counts.`}
      >
        <button type="button" className="button button-ghost" onClick={props.onDismiss}>
          Done
        </button>
      </CardHeader>
      <div className="card-body">
        <ul className="suggestion-list" aria-label="Suggested grants">
          {props.suggestions.map((suggestion, index) => {
            const wanted = grantFromSuggestion(suggestion, resources[index]!);
            const held = holdsGrant(props.agent.grants, wanted);
            const title = `${scopeLabel(suggestion.scope)} · ${levelLabel(suggestion.level)}`;
            return (
              <li key={index} className="suggestion" aria-label={title}>
                <div>
                  <span className="cell-strong">{title}</span>
                  <span className="cell-sub">
                    {suggestionText(suggestion)}
                    {suggestion.level === "execute"
                      ? "; over it, writes wait for your approval"
                      : "; its writes wait for your approval"}
                  </span>
                  <FieldError message={errors[index]} />
                </div>
                <Field label="Where">
                  {(control) => (
                    <select
                      {...control}
                      className="select"
                      value={resources[index]}
                      disabled={held || pendingIndex !== null || props.agent.status === "revoked"}
                      onChange={(event) =>
                        setResources((current) => current.map((value, i) => (i === index ? event.target.value : value)))
                      }
                    >
                      {groups.map(({ group, options }) =>
                        options.length === 0 ? null : (
                          <optgroup key={group} label={group}>
                            {options.map((option) => (
                              <option key={option.value} value={option.value}>
                                {option.label}
                              </option>
                            ))}
                          </optgroup>
                        ),
                      )}
                    </select>
                  )}
                </Field>
                {held ? (
                  <span className="pill verdict pill-success">
                    <CheckIcon />
                    Granted
                  </span>
                ) : (
                  <ActionButton
                    look="button-secondary"
                    pending={pendingIndex === index}
                    disabled={pendingIndex !== null || props.agent.status === "revoked"}
                    onClick={() => void accept(index)}
                  >
                    Accept {scopeLabel(suggestion.scope)}
                  </ActionButton>
                )}
              </li>
            );
          })}
        </ul>
      </div>
    </section>
  );
}

function UsageRow({ label, usage, currency, name }: { label: string; usage: TGrantUsage; currency: string; name: string }) {
  const percent = usage.limit_minor === 0 ? 100 : Math.min(100, Math.round((usage.used_minor / usage.limit_minor) * 100));
  return (
    <div className="limit-period">
      <span className="muted">{label}</span>
      <progress className="progress" max={100} value={percent} aria-label={`${name}: ${label.toLowerCase()} used`} />
      <span className="amount">
        {formatMinor(usage.used_minor, currency)} of {formatMinor(usage.limit_minor, currency)} used ·{" "}
        {formatMinor(usage.left_minor, currency)} left
      </span>
    </div>
  );
}

/** The agent's grants with their limits used and left in the current UTC day and month. */
function AgentLimits(props: { agentId: string; agentUpdatedAt: string; resources: TResourceOption[] }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const limits = useQuery(trpc.agents.limits.queryOptions({ id: props.agentId }));
  // Saving the grants replaces them (new ids, counters carried over): read the limits anew.
  useEffect(() => {
    void queryClient.invalidateQueries({ queryKey: trpc.agents.limits.queryKey({ id: props.agentId }) });
  }, [queryClient, trpc, props.agentId, props.agentUpdatedAt]);
  const grants: TGrantWithUsage[] = limits.data?.data ?? [];
  const limited = grants.filter((grant) => grant.today || grant.this_month);
  const unlimited = grants.length - limited.length;

  return (
    <section className="card" aria-labelledby="limits-heading">
      <CardHeader
        headingId="limits-heading"
        title="Limits used"
        description="What the agent's executed writes have counted against each grant's limits today and this month (UTC days and months)."
      />
      {limits.isError ? (
        <div className="card-body">
          <FormAlert message={formErrorOf(limits.error, []).summary} />
        </div>
      ) : limited.length === 0 ? (
        <EmptyState icon={<WalletIcon />} title={limits.isPending ? "Loading limits…" : "No spending limits"}>
          {grants.length === 0
            ? "The agent has no grants yet. Give it one in “Name and grants”, with a daily or monthly limit, and what it spends against it shows here."
            : "None of the agent's grants has a daily or monthly limit, so nothing is counted. Add a limit to a grant in “Name and grants” to cap what it may spend without asking you."}
        </EmptyState>
      ) : (
        <>
          <ul className="limit-list" aria-label="Limits by grant">
            {limited.map((grant, index) => {
              const name = `${scopeLabel(grant.scope)} on ${resourceLabel(grant.resource, props.resources)}`;
              return (
                <li key={index} aria-label={name}>
                  <span className="cell-strong">{name}</span>
                  <span className="cell-sub">
                    {levelLabel(grant.level)} · over a limit: {grant.over_limit === "deny" ? "refused" : "asks you to approve"}
                  </span>
                  {grant.today ? <UsageRow label="Today" usage={grant.today} currency={grant.currency!} name={name} /> : null}
                  {grant.this_month ? (
                    <UsageRow label="This month" usage={grant.this_month} currency={grant.currency!} name={name} />
                  ) : null}
                </li>
              );
            })}
          </ul>
          {unlimited > 0 ? (
            <p className="card-note muted">
              {unlimited === 1 ? "1 other grant has" : `${unlimited} other grants have`} no spending limit.
            </p>
          ) : null}
        </>
      )}
    </section>
  );
}
